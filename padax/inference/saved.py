"""`padax.jit.save` / `padax.jit.load`: a traced function stored as StableHLO plus its parameters.

`save(fn, path, input_spec)` traces `fn` at the given input shapes and writes
one file, `path.padax`: a numpy npz archive holding

- `program`: a StableHLO portable artifact (readable by later jaxlib
  releases) whose leading inputs are the parameters;
- `p0`, `p1`, ...: the arrays `fn` captured (weights), as raw bytes;
- `manifest`: JSON with the input specs, the output tree, parameter dtypes
  and shapes, and versions.

One file written atomically (temp file, fsync, rename): an interrupted save
leaves the previous save intact, never a mix of two. Loading reads the
archive with `allow_pickle=False` and runs no Python code from it: only
StableHLO, compiled by XLA.

`load(path)` returns a `TranslatedFunction`: call it with arrays of the saved
shapes; it also works inside `jit` (one call in the larger program) and
`vmap` (a compiled loop), but it cannot be differentiated.
"""
from __future__ import annotations

import inspect
import os
from typing import Any, Callable, Sequence

import numpy as np

import padax
from padax import device_put, dtypes
from padax.core.abstract import ShapedArray
from padax.functional.lax.saved import SavedProgram, saved_program_p
from padax.lowering.export import ArtifactError, check_portable, module_text, portable_version, to_portable
from padax.lowering.mlir import lower_jaxpr
from padax.serialization import (
    LoadError,
    array_entries,
    decode_tree,
    encode_tree,
    json_entry,
    open_archive,
    read_arrays,
    read_json,
    read_member,
    tree_is_valid,
    write_archive,
)
from padax.static.input_spec import InputSpec
from padax.transforms.jit_primitive import hoist_consts
from padax.transforms.spmd import needs_spmd
from padax.transforms.staging import trace_flat

FORMAT = "padax.saved_program"
FORMAT_VERSION = 1
SUFFIX = ".padax"


class SavedProgramError(LoadError):
    """Files that do not form a loadable saved program (missing, mismatched or corrupt).

    Args:
        *args: the message, as for any LoadError.

    Returns:
        The exception (raise it).

    Examples:
        >>> import os, tempfile, padax
        >>> with tempfile.TemporaryDirectory() as d:
        ...     try:
        ...         padax.jit.load(os.path.join(d, "missing"))
        ...     except padax.inference.SavedProgramError as e:
        ...         print(str(e).endswith("missing.padax' does not exist"))
        True
    """


def _file(path: str) -> str:
    path = os.fspath(path)
    if not os.path.basename(path):
        raise ValueError(f"padax.jit.save/load: {path!r} names a folder; give a path prefix like 'out/model'")
    return path if path.endswith(SUFFIX) else path + SUFFIX


# -- the function and its input specs ---------------------------------------------------------

def _unwrap(obj: Any) -> tuple[Callable, Any]:
    """The Python function behind a jitted / to_static function, and the input spec it carries."""
    spec = getattr(obj, "_padax_input_spec", None)
    jit_fn = getattr(obj, "_padax_jit", None)
    if jit_fn is not None:
        return obj.fun, spec
    if not callable(obj):
        raise TypeError(f"padax.jit.save: expected a function (or a callable pytree), got {type(obj).__name__}")
    return obj, spec


def _spec_of(s: Any, i: int) -> InputSpec:
    if isinstance(s, InputSpec):
        spec = s
    elif hasattr(s, "shape") and hasattr(s, "dtype"):
        spec = InputSpec(tuple(s.shape), s.dtype)
    else:
        raise TypeError(f"padax.jit.save: input_spec[{i}] must be an InputSpec, a Tensor or an array with "
                        f".shape and .dtype, got {type(s).__name__}")
    if any(d < 0 for d in spec.shape):
        raise ValueError(f"padax.jit.save: input_spec[{i}] = {spec} has a size that is not known (None/-1). "
                         "padax compiles a saved program for fixed shapes (XLA); give every size, e.g. the "
                         "batch size you will serve, and save once per shape you need.")
    return spec


def _aval(spec: InputSpec) -> ShapedArray:
    return ShapedArray(spec.shape, dtypes.canonicalize_dtype(spec.dtype))


# -- save -----------------------------------------------------------------------------------

def save(layer: Any, path: str, input_spec: Sequence[Any] | None = None, **configs: Any) -> None:
    """Trace `layer(*inputs)` at `input_spec` and save the program and its captured arrays under `path`.

    `layer` is a function (jitted or not; a `to_static` function brings its own
    `input_spec`) or a callable pytree. `input_spec` lists one `InputSpec`
    (or example array) per positional input, with every size known.

    Args:
        layer: what to save.
        path: the file name without its suffix; the file written is `path + ".padax"`.
        input_spec: the inputs' shapes and dtypes.

    Examples:
        >>> import os, tempfile, padax
        >>> w = padax.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> with tempfile.TemporaryDirectory() as d:
        ...     padax.jit.save(lambda x: x @ w, os.path.join(d, "model"),
        ...                    input_spec=[padax.static.InputSpec([1, 2], 'float32')])
        ...     print(os.listdir(d), padax.jit.load(os.path.join(d, "model"))(padax.to_tensor([[1.0, 1.0]])).tolist())
        ['model.padax'] [[4.0, 6.0]]
    """
    if configs:
        raise TypeError(f"padax.jit.save: unsupported options {sorted(configs)}")
    fn, carried = _unwrap(layer)
    spec_list = input_spec if input_spec is not None else carried
    if spec_list is None:
        raise TypeError("padax.jit.save: give input_spec (one InputSpec per input), or decorate the function "
                        "with padax.jit.to_static(input_spec=[...])")
    specs = [_spec_of(s, i) for i, s in enumerate(spec_list)]
    name = getattr(fn, "__name__", type(fn).__name__)
    tree_store: list = []

    def flat(*xs):
        leaves: list = []
        tree_store.append(encode_tree(fn(*xs), leaves, "padax.jit.save", values=False))
        return leaves

    params, program, closed = trace_program(flat, [_aval(s) for s in specs], name)
    manifest = base_manifest(name, specs, closed, tree_store[0], _arg_names(fn, len(specs)))
    entries, meta = array_entries(params, "p")
    manifest["params"] = meta
    entries.update(manifest=json_entry(manifest), program=np.frombuffer(program, np.uint8))
    write_archive(_file(path), entries)


def _layers() -> Any:
    return padax.nn


def trace_program(flat: Callable, avals: Sequence[ShapedArray], name: str) -> tuple[list, bytes, Any]:
    """Trace `flat(*arrays) -> list of arrays` at `avals` and lower it: (captured arrays, portable StableHLO
    taking them before the arguments, the closed jaxpr)."""
    closed = trace_flat(flat, list(avals), "padax.jit.save tracing")
    if needs_spmd(closed):
        raise ValueError("padax.jit.save: the function uses several devices (shardings or shard_map); "
                         "padax saves single-device programs")
    hoisted = hoist_consts(closed)
    params = [np.asarray(c) for c in closed.consts]
    lowered = lower_jaxpr(hoisted.jaxpr, name=name)
    if lowered.host_callbacks:
        raise ValueError("padax.jit.save: the function calls back into Python (debug.print, debug.callback, "
                         "pure_callback or io_callback); a saved program cannot hold Python functions. Remove "
                         "the callbacks from the function you save.")
    return params, to_portable(lowered), closed


def _arg_names(fn: Any, n: int) -> list[str]:
    """The names of the first `n` positional parameters of `fn` (its forward's, for a Layer), else x0, x1, ..."""
    target = type(fn).forward if isinstance(fn, _layers().Layer) else fn
    try:
        params = list(inspect.signature(target).parameters.values())
    except (TypeError, ValueError):
        params = []
    if isinstance(fn, _layers().Layer):
        params = params[1:]  # self
    names = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)][:n]
    return names if len(names) == n and len(set(names)) == n else [f"x{i}" for i in range(n)]


def base_manifest(name: str, specs: Sequence[InputSpec], closed: Any, output_tree: Any,
                  arg_names: Sequence[str]) -> dict:
    """The manifest entries every saved program has."""
    return {
        "format": FORMAT, "format_version": FORMAT_VERSION, "name": name,
        "padax": _padax_version(), "stablehlo": portable_version(),
        "inputs": [{"name": s.name, "shape": list(s.shape), "dtype": _aval(s).dtype.name} for s in specs],
        "outputs": [{"shape": list(a.shape), "dtype": a.dtype.name, "weak_type": a.weak_type}
                    for a in closed.out_avals],
        "output_tree": output_tree,
        "arg_names": [s.name or a for s, a in zip(specs, arg_names)],
    }


def _padax_version() -> str:
    return padax.__version__


# -- load -----------------------------------------------------------------------------------

class TranslatedFunction:
    """A program loaded by `padax.jit.load`: call it like the saved function (positional arrays); it has the
    saved `input_spec`, `output_spec` and `program_text()` (StableHLO).

    Args:
        program: the compiled saved program.
        params: the saved parameter arrays, passed before the inputs.
        input_spec: the InputSpecs of the inputs.
        output_tree: the structure of the outputs.
        path: the file it was loaded from.

    Returns:
        The callable loaded program (made by `padax.jit.load`; not meant to be built by hand).

    Examples:
        >>> import os, tempfile, padax
        >>> with tempfile.TemporaryDirectory() as d:
        ...     padax.jit.save(padax.sin, os.path.join(d, "sin"), input_spec=[padax.static.InputSpec([2], 'float32')])
        ...     f = padax.jit.load(os.path.join(d, "sin"))
        >>> f.input_spec, f(padax.to_tensor([0.0, 1.5707964])).tolist()
        ([InputSpec(shape=(2,), dtype=float32, name=None)], [0.0, 1.0])
        >>> 'stablehlo.sine' in f.program_text()
        True
    """

    def __init__(self, program: SavedProgram, params: list, input_spec: list[InputSpec],
                 output_tree: Any, path: str):
        self._program = program
        self._params = params
        self.input_spec = input_spec
        self._output_tree = output_tree
        self.path = path
        self.__name__ = program.name

    @property
    def output_spec(self) -> list[InputSpec]:
        return [InputSpec(a.shape, a.dtype) for a in self._program.out_avals]

    def program_text(self) -> str:
        """The saved program as StableHLO text."""
        return module_text(self._program.artifact)

    def _arg(self, x: Any, i: int, spec: InputSpec) -> Any:
        if isinstance(x, (np.ndarray, np.generic, int, float, bool, complex)):  # host data: to the spec's dtype
            host = np.asarray(x)
            if not np.can_cast(host.dtype, spec.dtype, "same_kind"):
                raise TypeError(f"{self._where()}: argument {i} must be {spec.dtype.name}, got host data of "
                                f"dtype {host.dtype.name}")
            x = device_put(host.astype(spec.dtype, copy=False))
        aval = getattr(x, "aval", None)
        if not isinstance(aval, ShapedArray):
            raise TypeError(f"{self._where()}: argument {i} must be an array, got {type(x).__name__}")
        want = self._program.in_avals[len(self._params) + i]
        if aval.shape != want.shape or aval.dtype != want.dtype:
            label = f" ({spec.name!r})" if spec.name else ""
            raise TypeError(f"{self._where()}: argument {i}{label} must be {want.str_short()}, got "
                            f"{aval.str_short()}")
        return x

    def _where(self) -> str:
        return f"padax.jit.load({self.path!r}) program '{self._program.name}'"

    def __call__(self, *args: Any) -> Any:
        if len(args) != len(self.input_spec):
            raise TypeError(f"{self._where()}: takes {len(self.input_spec)} inputs, got {len(args)}")
        xs = [self._arg(x, i, s) for i, (x, s) in enumerate(zip(args, self.input_spec))]
        outs = saved_program_p.bind(*self._params, *xs, program=self._program)
        return decode_tree(self._output_tree, outs)

    def __repr__(self) -> str:
        ins = ", ".join(repr(s) for s in self.input_spec)
        return f"TranslatedFunction({self._program.name}, path={self.path!r}, inputs=[{ins}])"


def _read_saved(file: str) -> tuple[dict, bytes, list]:
    """The manifest, program bytes and parameters of a .padax file."""
    what = "padax.jit.load"
    with open_archive(file, what) as z:
        manifest = read_json(z, "manifest", file, what)
        if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
            raise SavedProgramError(f"{what}: {file!r} is not a padax saved program")
        if manifest.get("format_version", 0) > FORMAT_VERSION:
            raise SavedProgramError(f"{what}: {file!r} was written by a newer padax ({manifest.get('padax')}); "
                                    "upgrade padax to load it")
        program = read_member(z, "program", file, what)
        params = read_arrays(z, manifest.get("params"), "p", file, what)
        vjp = manifest.get("vjp")
        if isinstance(vjp, dict):  # a saved Layer's reverse-mode program (padax.inference.translated)
            manifest["_vjp_program"] = read_member(z, "program_vjp", file, what).tobytes()
            manifest["_vjp_params"] = read_arrays(z, vjp.get("params"), "q", file, what)
        return manifest, program.tobytes(), params


def load(path: str, **configs: Any) -> TranslatedFunction:
    """Load a program saved by `padax.jit.save(fn, path, ...)` (`path` without the .padax suffix); no Python
    code is read from the file.

    Args:
        path: the path given to `padax.jit.save` (without the .padax suffix).
        **configs: not accepted (raises TypeError).

    Returns:
        A TranslatedFunction.

    Examples:
        >>> import os, tempfile, padax
        >>> with tempfile.TemporaryDirectory() as d:
        ...     padax.jit.save(lambda x: x * 2.0, os.path.join(d, "double"), input_spec=[padax.ones([3])])
        ...     double = padax.jit.load(os.path.join(d, "double"))
        >>> double(padax.to_tensor([1.0, 2.0, 3.0])).tolist()
        [2.0, 4.0, 6.0]
    """
    if configs:
        raise TypeError(f"padax.jit.load: unsupported options {sorted(configs)}")
    manifest, program, params, specs, file = read_program(path)
    return TranslatedFunction(program, params, specs, manifest["output_tree"], file)


def read_program(path: str) -> tuple[dict, SavedProgram, list, list[InputSpec], str]:
    """(manifest, program, parameters on the device, input specs, file) of a saved program, checked."""
    file = _file(path)
    try:
        manifest, program_bytes, params = _read_saved(file)
    except SavedProgramError:
        raise
    except LoadError as e:
        raise SavedProgramError(str(e)) from None
    try:
        specs = [InputSpec(e["shape"], e["dtype"], e.get("name")) for e in manifest["inputs"]]
        in_avals = ([ShapedArray(p.shape, p.dtype) for p in params]
                    + [ShapedArray(tuple(s.shape), dtypes.to_dtype(s.dtype)) for s in specs])
        out_avals = [ShapedArray(tuple(e["shape"]), dtypes.to_dtype(e["dtype"]), e.get("weak_type", False))
                     for e in manifest["outputs"]]
    except Exception:  # noqa: BLE001 (a hand-edited manifest fails in many ways)
        raise SavedProgramError(f"padax.jit.load: {file!r} is damaged (its manifest does not give a shape and "
                                "dtype for every input and output)") from None
    if not tree_is_valid(manifest.get("output_tree"), len(out_avals)):
        raise SavedProgramError(f"padax.jit.load: {file!r} is damaged (its manifest's output tree does not "
                                f"describe the program's {len(out_avals)} outputs)")
    for a in in_avals + out_avals:
        if dtypes.canonicalize_dtype(a.dtype) != a.dtype:
            raise SavedProgramError(f"padax.jit.load: the program uses {a.dtype.name}; enable 64-bit types "
                                    "first (padax.config.update('enable_x64', True))")
    try:
        check_portable(program_bytes, in_avals, out_avals)
    except ArtifactError as e:
        raise SavedProgramError(f"padax.jit.load: {file!r}: {e}") from None
    program = SavedProgram(program_bytes, in_avals, out_avals, manifest.get("name", "saved"))
    return manifest, program, [device_put(p) for p in params], specs, file
