"""A saved `padax.nn.Layer` and the `TranslatedLayer` that `padax.jit.load` gives back (Paddle's names).

Saving a Layer writes the same `.padax` file as a function, with two additions:

- the layer's state (its `state_dict()`: parameters and persistable buffers) is
  passed to the program as named inputs rather than baked in, listed in the
  manifest under `layer` (name, parameter or buffer, trainable);
- a second program, `program_vjp`, computes the reverse-mode derivative
  (state and inputs -> cotangents of the floating state and inputs), so the
  loaded layer can be fine-tuned with `padax.grad`.

`load` of such a file returns a `TranslatedLayer`: a `padax.nn.Layer` whose
parameters are the saved state under the original dotted names, so
`state_dict()`, `set_state_dict()`, `parameters()`, `train()`/`eval()` and the
optimizers work on it, and it is a pytree for `jit`, `vmap` and `grad`. The
program itself is the one traced at save time: `train()`/`eval()` set the flag
(as Paddle's TranslatedLayer) but do not switch Dropout or BatchNorm behaviour.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from padax import Tensor, custom_vjp, device_put, dtypes, nn, tree, vjp
from padax.core.abstract import ShapedArray
from padax.functional.lax.saved import SavedProgram, saved_program_p
from padax.inference import saved as _saved
from padax.inference.saved import (
    SavedProgramError,
    TranslatedFunction,
    _arg_names,
    _aval,
    _file,
    _spec_of,
    _unwrap,
    array_entries,
    base_manifest,
    decode_tree,
    encode_tree,
    json_entry,
    read_program,
    trace_program,
    write_archive,
)
from padax.lowering.export import ArtifactError, check_portable
from padax.static.input_spec import InputSpec

__all__ = ["TranslatedLayer", "save", "load"]


def _key_name(k: Any) -> str:
    for attr in ("name", "key", "idx"):
        if hasattr(k, attr):
            return str(getattr(k, attr))
    return str(k)


def _inexact(a: Any) -> bool:
    return dtypes.is_inexact(a.dtype)


def save(layer: Any, path: str, input_spec: Sequence[Any] | None = None, **configs: Any) -> None:
    """Trace `layer(*inputs)` at `input_spec` and save it under `path` (Paddle's `paddle.jit.save`).

    A `padax.nn.Layer` is saved with its state as named inputs and a reverse-mode program, so that
    `padax.jit.load` returns a `TranslatedLayer`; a function is saved as `padax.inference.saved.save` does.

    Args:
        layer: a Layer, or a function (jitted or not; a `to_static` function brings its own `input_spec`).
        path: the file name without its suffix; the file written is `path + ".padax"`.
        input_spec: one `InputSpec` (or example array) per positional input, every size known.
        **configs: not accepted (raises TypeError).

    Examples:
        >>> import os, tempfile, padax
        >>> net = padax.nn.Linear(2, 1)
        >>> with tempfile.TemporaryDirectory() as d:
        ...     padax.jit.save(net, os.path.join(d, "net"), input_spec=[padax.static.InputSpec([4, 2], 'float32')])
        ...     loaded = padax.jit.load(os.path.join(d, "net"))
        >>> type(loaded).__name__, list(loaded.state_dict())
        ('TranslatedLayer', ['weight', 'bias'])
    """
    fn, carried = _unwrap(layer)
    if not isinstance(fn, nn.Layer) or configs:
        _saved.save(layer, path, input_spec, **configs)
        return
    spec_list = input_spec if input_spec is not None else carried
    if spec_list is None:
        raise TypeError("padax.jit.save: give input_spec (one InputSpec per input of the layer's forward)")
    specs = [_spec_of(s, i) for i, s in enumerate(spec_list)]
    _save_layer(fn, path, specs)


def _save_layer(layer: Any, path: str, specs: list[InputSpec]) -> None:
    pairs, treedef = tree.flatten_with_path(layer)
    names = [".".join(_key_name(k) for k in p) for p, _ in pairs]
    leaves = [leaf for _, leaf in pairs]
    state = layer.state_dict()
    buffers = {n for n, _ in layer.named_buffers()}
    slots = [i for i, n in enumerate(names) if n in state and leaves[i] is not None]
    entries_meta = []
    for i in slots:
        kind = "buffer" if names[i] in buffers else "parameter"
        trainable = kind == "parameter" and layer.param_info(names[i]).trainable
        entries_meta.append({"name": names[i], "kind": kind, "trainable": bool(trainable)})
    k = len(slots)
    state_avals = [ShapedArray(tuple(leaves[i].shape), dtypes.canonicalize_dtype(leaves[i].dtype)) for i in slots]
    in_avals = [_aval(s) for s in specs]
    name = type(layer).__name__
    tree_store: list = []

    def run(args):
        full = list(leaves)
        for j, i in enumerate(slots):
            full[i] = args[j]
        model = tree.unflatten(treedef, full)
        out_leaves: list = []
        tree_store.append(encode_tree(model(*args[k:]), out_leaves, "padax.jit.save", values=False))
        return out_leaves

    try:
        consts, program, closed = trace_program(lambda *a: run(list(a)), state_avals + in_avals, name)
    except Exception as e:
        if not any(sub.training for sub in layer.sublayers(include_self=True)):
            raise
        raise ValueError(f"padax.jit.save: {name} is in training mode, and its forward then uses state a saved "
                         "program cannot hold (Dropout's random key, BatchNorm's statistics updates): call "
                         f"model.eval() before saving ({type(e).__name__}: {str(e)[:200]})") from e
    manifest = base_manifest(name, specs, closed, tree_store[0], _arg_names(layer, len(specs)))
    manifest["layer"] = {"state": entries_meta, "num_consts": len(consts)}
    arrays = consts + [np.asarray(leaves[i]) for i in slots]
    entries, meta = array_entries(arrays, "p")
    manifest["params"] = meta
    entries.update(program=np.frombuffer(program, np.uint8))

    diff_in = [j for j, a in enumerate(state_avals + in_avals) if _inexact(a)]
    diff_out = [j for j, a in enumerate(closed.out_avals) if _inexact(a)]
    if diff_in and diff_out:
        out_avals = [closed.out_avals[j] for j in diff_out]

        def vjp_fn(*a):
            args, cts = list(a[:len(state_avals) + len(in_avals)]), list(a[len(state_avals) + len(in_avals):])

            def f(diff):
                full = list(args)
                for j, v in zip(diff_in, diff):
                    full[j] = v
                outs = run(full)
                return [outs[j] for j in diff_out]

            _, pull = vjp(f, [args[j] for j in diff_in])
            return list(pull([c.astype(o.dtype) for c, o in zip(cts, out_avals)])[0])

        vjp_consts, vjp_program, _ = trace_program(
            vjp_fn, state_avals + in_avals + [ShapedArray(a.shape, a.dtype) for a in out_avals], name + "_vjp")
        q_entries, q_meta = array_entries(vjp_consts, "q")
        entries.update(q_entries, program_vjp=np.frombuffer(vjp_program, np.uint8))
        manifest["vjp"] = {"params": q_meta, "diff_inputs": diff_in, "diff_outputs": diff_out}
    entries["manifest"] = json_entry(manifest)
    write_archive(_file(path), entries)


class _Program:
    """The static part of a TranslatedLayer (compared by identity, so jit compiles once per loaded layer)."""

    def __init__(self, program: SavedProgram, consts: list, state_names: list[str], output_tree: Any,
                 specs: list[InputSpec], path: str, vjp: SavedProgram | None, vjp_consts: list,
                 diff_in: list[int], diff_out: list[int], arg_names: list[str]):
        self.program, self.consts, self.state_names, self.output_tree = program, consts, state_names, output_tree
        self.specs, self.path, self.vjp, self.vjp_consts = specs, path, vjp, vjp_consts
        self.diff_in, self.diff_out, self.arg_names = diff_in, diff_out, arg_names


class _StateHolder(nn.Layer):
    """A sublayer of a TranslatedLayer that holds part of the saved state under its original name."""

    def forward(self, *args: Any) -> Any:
        raise TypeError("a TranslatedLayer's sublayers hold saved state only; call the TranslatedLayer")


class TranslatedLayer(nn.Layer):
    """A Layer loaded by `padax.jit.load` (Paddle's `paddle.jit.TranslatedLayer`): call it like the saved layer.

    Its parameters and buffers are the saved state under the saved layer's `state_dict` names, so
    `state_dict`, `set_state_dict`, `parameters`, `train`/`eval` and the optimizers work on it; it is a
    pytree for `padax.jit`, `padax.vmap` and `padax.grad` (the saved reverse-mode program gives the
    gradient). The computation is the one traced at save time: `train()`/`eval()` only set the flag.

    Args:
        program: the saved program and its metadata (made by `padax.jit.load`).
        state: (name, value, kind, trainable) of each saved state entry.

    Returns:
        The layer (made by `padax.jit.load`; not meant to be built by hand).

    Examples:
        >>> import os, tempfile, padax
        >>> net = padax.nn.Linear(3, 2)
        >>> x = padax.ones([1, 3])
        >>> with tempfile.TemporaryDirectory() as d:
        ...     padax.jit.save(net, os.path.join(d, "net"), input_spec=[x])
        ...     loaded = padax.jit.load(os.path.join(d, "net"))
        >>> bool(padax.allclose(loaded(x), net(x)))
        True
        >>> g = padax.grad(lambda m: m(x).sum())(loaded)
        >>> g.weight.tolist()
        [[1.0, 1.0], [1.0, 1.0], [1.0, 1.0]]
    """

    def __init__(self, program: _Program, state: Sequence[tuple[str, Any, str, bool]]):
        super().__init__()
        self._translated = program
        for name, value, kind, trainable in state:
            owner: nn.Layer = self
            *path, leaf = name.split(".")
            for part in path:
                sub = owner.__dict__["_sub_layers"].get(part)
                if sub is None:
                    sub = owner.add_sublayer(part, _StateHolder())
                owner = sub
            if kind == "buffer":
                owner.register_buffer(leaf, value)
            else:
                owner.add_parameter(leaf, value)
                if not trainable:
                    owner.freeze(leaf)

    @property
    def input_spec(self) -> list[InputSpec]:
        """The saved inputs' shapes and dtypes."""
        return list(self._translated.specs)

    @property
    def output_spec(self) -> list[InputSpec]:
        """The outputs' shapes and dtypes."""
        return [InputSpec(a.shape, a.dtype) for a in self._translated.program.out_avals]

    @property
    def path(self) -> str:
        """The file the layer was loaded from."""
        return self._translated.path

    def program_text(self) -> str:
        """The saved forward program as StableHLO text."""
        return TranslatedFunction(self._translated.program, [], [], None, self.path).program_text()

    def _state(self) -> list:
        t = self._translated
        out = []
        for name in t.state_names:
            owner, leaf = self._owner(name)
            out.append(getattr(owner, leaf))
        return out

    def forward(self, *inputs: Any) -> Any:
        t = self._translated
        checker = TranslatedFunction(t.program, list(t.consts) + [None] * len(t.state_names), t.specs,
                                     t.output_tree, t.path)
        if len(inputs) != len(t.specs):
            raise TypeError(f"{checker._where()}: takes {len(t.specs)} inputs, got {len(inputs)}")
        xs = [checker._arg(x, i, s) for i, (x, s) in enumerate(zip(inputs, t.specs))]
        args = self._state() + xs
        if t.vjp is not None and any(type(a) is not Tensor for a in args):  # under a transformation
            outs = _differentiable(t)(*args)
        else:
            outs = saved_program_p.bind(*t.consts, *args, program=t.program)
        return decode_tree(t.output_tree, list(outs))

    def extra_repr(self) -> str:
        return f"path={self.path!r}"


def _differentiable(t: _Program) -> Any:
    """The saved program as a custom_vjp function of (state..., inputs...), its rule the saved vjp program."""
    fn = getattr(t, "_fn", None)
    if fn is not None:
        return fn

    def call(*args):
        return list(saved_program_p.bind(*t.consts, *args, program=t.program))

    f = custom_vjp(call)

    def fwd(*args):
        return call(*args), tuple(args)

    def bwd(args, cts):
        float_cts = [cts[j] for j in t.diff_out]
        grads = saved_program_p.bind(*t.vjp_consts, *args, *float_cts, program=t.vjp)
        out: list = [None] * len(args)
        for j, g in zip(t.diff_in, grads):
            out[j] = g
        return tuple(out)

    f.defvjp(fwd, bwd)
    t._fn = f
    return f


def load(path: str, **configs: Any) -> Any:
    """Load what `padax.jit.save` wrote (Paddle's `paddle.jit.load`): a `TranslatedLayer` for a saved Layer,
    a `TranslatedFunction` for a saved function. No Python code is read from the file.

    Args:
        path: the path given to `padax.jit.save` (without the .padax suffix).
        **configs: not accepted (raises TypeError).

    Returns:
        A TranslatedLayer or a TranslatedFunction.

    Examples:
        >>> import os, tempfile, padax
        >>> with tempfile.TemporaryDirectory() as d:
        ...     padax.jit.save(padax.nn.ReLU(), os.path.join(d, "relu"), input_spec=[padax.ones([2])])
        ...     relu = padax.jit.load(os.path.join(d, "relu"))
        >>> relu(padax.to_tensor([-1.0, 2.0])).tolist()
        [0.0, 2.0]
    """
    if configs:
        raise TypeError(f"padax.jit.load: unsupported options {sorted(configs)}")
    manifest, program, params, specs, file = read_program(path)
    layer = manifest.get("layer")
    if not isinstance(layer, dict):
        fn = TranslatedFunction(program, params, specs, manifest["output_tree"], file)
        fn.arg_names = list(manifest.get("arg_names") or [])
        return fn
    try:
        n_consts = int(layer["num_consts"])
        state = [(e["name"], e["kind"], bool(e["trainable"])) for e in layer["state"]]
    except (KeyError, TypeError, ValueError):
        raise SavedProgramError(f"padax.jit.load: {file!r} is damaged (its manifest's layer entry)") from None
    if n_consts + len(state) != len(params):
        raise SavedProgramError(f"padax.jit.load: {file!r} is damaged (the layer's state does not match its "
                                "parameters)")
    consts, values = params[:n_consts], params[n_consts:]
    vjp_prog, vjp_consts, diff_in, diff_out = None, [], [], []
    vjp = manifest.get("vjp")
    if isinstance(vjp, dict):
        vjp_consts = [device_put(q) for q in manifest["_vjp_params"]]
        diff_in, diff_out = list(vjp["diff_inputs"]), list(vjp["diff_outputs"])
        args = list(program.in_avals[n_consts:])
        vin = ([ShapedArray(q.shape, q.dtype) for q in vjp_consts] + args
               + [program.out_avals[j] for j in diff_out])
        vout = [args[j] for j in diff_in]
        try:
            check_portable(manifest["_vjp_program"], vin, vout)
        except ArtifactError as e:
            raise SavedProgramError(f"padax.jit.load: {file!r}: {e}") from None
        vjp_prog = SavedProgram(manifest["_vjp_program"], vin, vout, program.name + "_vjp")
    t = _Program(program, consts, [s[0] for s in state], manifest["output_tree"], specs, file, vjp_prog,
                 vjp_consts, diff_in, diff_out, list(manifest.get("arg_names") or []))
    return TranslatedLayer(t, [(n, v, kind, tr) for (n, kind, tr), v in zip(state, values)])
