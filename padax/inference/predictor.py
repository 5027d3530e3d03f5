"""Paddle's inference API (`paddle.inference`): `Config`, `create_predictor`, `Predictor` and its handles.

A `Predictor` runs a program that `padax.jit.save` wrote (`<prefix>.padax`).
Inputs go in through handles (`get_input_handle(name).copy_from_cpu(array)`),
`run()` executes the compiled program, outputs come back through
`get_output_handle(name).copy_to_cpu()`; or `run([arrays])` returns the outputs
directly (Paddle 2.5+).

Threads: as Paddle documents, one predictor per thread. `predictor.clone()`
gives a new predictor with its own input and output handles that shares the
loaded program, its compiled executable and the weights on the device, so
cloning is cheap and several threads can each `run` their own clone at once.
"""
from __future__ import annotations

import enum
import glob
import os
from typing import Any, Sequence

import numpy as np

import padax
from padax import device_put
from padax.inference.saved import SUFFIX, SavedProgramError
from padax.inference.translated import load as _load

__all__ = ["Config", "DataType", "PlaceType", "PrecisionType", "Predictor", "Tensor", "create_predictor",
           "get_version"]


class DataType(enum.Enum):
    """Element types of predictor handles (Paddle's `paddle.inference.DataType`)."""

    FLOAT32 = "float32"
    FLOAT64 = "float64"
    FLOAT16 = "float16"
    BFLOAT16 = "bfloat16"
    INT64 = "int64"
    INT32 = "int32"
    INT8 = "int8"
    UINT8 = "uint8"
    BOOL = "bool"


class PlaceType(enum.Enum):
    """Where a handle's data lives (Paddle's `paddle.inference.PlaceType`)."""

    UNK = -1
    CPU = 0
    GPU = 1
    XPU = 2
    CUSTOM = 3


class PrecisionType(enum.Enum):
    """The precision of an accelerated engine (Paddle's `paddle.inference.PrecisionType`); recorded only."""

    Float32 = 0
    Int8 = 1
    Half = 2
    Bfloat16 = 3


def get_version() -> str:
    """padax's version (Paddle's `paddle.inference.get_version`).

    Returns:
        The version string.

    Examples:
        >>> import padax
        >>> padax.inference.get_version() == padax.__version__
        True
    """
    return padax.__version__


def _resolve(model: str | None, params: str | None) -> str:
    """The .padax file named by Paddle's (model_dir) or (prog_file, params_file) forms."""
    if not model:
        raise ValueError("padax.inference.Config: give the model: Config('out/model') (the prefix given to "
                         "padax.jit.save), Config('out/model.padax') or Config(model_dir)")
    model = os.fspath(model)
    if os.path.isdir(model):
        found = sorted(glob.glob(os.path.join(model, "*" + SUFFIX)))
        if len(found) != 1:
            raise ValueError(f"padax.inference.Config: the folder {model!r} holds {len(found)} {SUFFIX} files; "
                             f"name the one to load (Config('{model}/<prefix>'))")
        return found[0]
    root, ext = os.path.splitext(model)
    if ext in (".pdmodel", ".json", ".pdiparams"):  # Paddle's file names for the same prefix
        model = root
    return model if model.endswith(SUFFIX) else model + SUFFIX


class Config:
    """What to load and how to run it (Paddle's `paddle.inference.Config`).

    `Config(prefix)` loads `prefix.padax` as `padax.jit.save(model, prefix, ...)` wrote it; a folder
    holding one `.padax` file, and Paddle's `Config(prog_file, params_file)` with `.pdmodel` /
    `.pdiparams` names of the same prefix, are accepted too. The GPU, IR-optimisation, memory and
    thread settings are recorded and reported by their getters; XLA always optimises the whole program,
    and the program runs on padax's default device (or the GPU chosen with `enable_use_gpu`).

    Args:
        model_file_or_prefix: the prefix, the .padax file, a folder, or Paddle's program file name.
        params_file: Paddle's parameter file (the weights are in the .padax file; accepted and recorded).

    Examples:
        >>> import padax
        >>> c = padax.inference.Config("out/model")
        >>> c.disable_gpu(); c.switch_ir_optim(True); c.set_cpu_math_library_num_threads(2)
        >>> c.prog_file(), c.use_gpu(), c.cpu_math_library_num_threads()
        ('out/model.padax', False, 2)
    """

    def __init__(self, model_file_or_prefix: str | None = None, params_file: str | None = None):
        self._model = model_file_or_prefix
        self._params = params_file
        self._use_gpu = False
        self._gpu_id = 0
        self._gpu_mem = 0
        self._precision = PrecisionType.Float32
        self._ir_optim = True
        self._memory_optim = False
        self._threads = 1
        self._glog = True
        self._mkldnn = False
        self._profile = False
        self._feed_fetch = False

    # -- the model -----------------------------------------------------------------------------
    def set_model(self, model_file_or_prefix: str, params_file: str | None = None) -> None:
        """Set the model (as the constructor's arguments)."""
        self._model, self._params = model_file_or_prefix, params_file

    def set_model_dir(self, model_dir: str) -> None:
        """Set the model by folder (a folder holding one .padax file) or prefix."""
        self._model = model_dir

    def set_prog_file(self, prog_file: str) -> None:
        """Set the program file (the .padax file, or Paddle's .pdmodel name of the same prefix)."""
        self._model = prog_file

    def set_params_file(self, params_file: str) -> None:
        """Record Paddle's parameter file (padax keeps the weights in the .padax file)."""
        self._params = params_file

    def model_dir(self) -> str | None:
        """The model as given."""
        return self._model

    def prog_file(self) -> str:
        """The .padax file that will be loaded."""
        return _resolve(self._model, self._params)

    def params_file(self) -> str:
        """Where the weights are read from: the .padax file itself."""
        return self.prog_file()

    # -- devices -------------------------------------------------------------------------------
    def enable_use_gpu(self, memory_pool_init_size_mb: int = 100, device_id: int = 0,
                       precision_mode: PrecisionType = PrecisionType.Float32) -> None:
        """Run on GPU `device_id` when padax has one (else on the default device)."""
        self._use_gpu, self._gpu_mem, self._gpu_id = True, int(memory_pool_init_size_mb), int(device_id)
        self._precision = precision_mode

    def disable_gpu(self) -> None:
        """Run on the CPU."""
        self._use_gpu = False

    def use_gpu(self) -> bool:
        return self._use_gpu

    def gpu_device_id(self) -> int:
        return self._gpu_id

    def memory_pool_init_size_mb(self) -> int:
        return self._gpu_mem

    # -- settings XLA handles itself (recorded) ----------------------------------------------------
    def switch_ir_optim(self, x: bool = True) -> None:
        """Recorded; XLA always optimises the whole program."""
        self._ir_optim = bool(x)

    def ir_optim(self) -> bool:
        return self._ir_optim

    def enable_memory_optim(self, x: bool = True) -> None:
        """Recorded; XLA plans buffer reuse itself."""
        self._memory_optim = bool(x)

    def enable_memory_optim_status(self) -> bool:
        return self._memory_optim

    def set_cpu_math_library_num_threads(self, n: int) -> None:
        """Recorded (XLA's CPU client sizes its own thread pool)."""
        if int(n) < 1:
            raise ValueError(f"Config.set_cpu_math_library_num_threads: n must be >= 1, got {n}")
        self._threads = int(n)

    def cpu_math_library_num_threads(self) -> int:
        return self._threads

    def enable_mkldnn(self) -> None:
        """Recorded (XLA compiles the CPU program)."""
        self._mkldnn = True

    def mkldnn_enabled(self) -> bool:
        return self._mkldnn

    def disable_glog_info(self) -> None:
        """Recorded (padax writes no glog output)."""
        self._glog = False

    def glog_info_disabled(self) -> bool:
        return not self._glog

    def enable_profile(self) -> None:
        """Recorded (use padax.profiler to profile)."""
        self._profile = True

    def switch_use_feed_fetch_ops(self, x: bool = True) -> None:
        """Recorded (padax has no feed/fetch ops)."""
        self._feed_fetch = bool(x)

    def switch_specify_input_names(self, x: bool = True) -> None:
        """Recorded (inputs are always found by name)."""

    def summary(self) -> str:
        """The settings, one per line."""
        rows = [("model", self._model), ("params", self._params), ("use_gpu", self._use_gpu),
                ("gpu_device_id", self._gpu_id), ("ir_optim", self._ir_optim),
                ("memory_optim", self._memory_optim), ("cpu_math_library_num_threads", self._threads)]
        return "\n".join(f"{k}: {v}" for k, v in rows)

    def _device(self) -> Any:
        if not self._use_gpu:
            return None
        try:
            gpus = padax.devices("gpu")
        except Exception:  # noqa: BLE001 (no GPU backend: run on the default device)
            return None
        return gpus[self._gpu_id] if self._gpu_id < len(gpus) else None


class Tensor:
    """An input or output of a Predictor (Paddle's `paddle.inference.Tensor`): host data in and out by name.

    Args:
        name: the input or output name.
        shape: its saved shape.
        dtype: its dtype.
        is_input: whether it is an input handle.

    Returns:
        The handle (made by `Predictor.get_input_handle` / `get_output_handle`).
    """

    def __init__(self, name: str, shape: Sequence[int], dtype: Any, is_input: bool):
        self._name = name
        self._saved_shape = tuple(shape)
        self._shape = tuple(shape)
        self._dtype = np.dtype(dtype)
        self._is_input = is_input
        self._value: Any = None

    def name(self) -> str:
        """The handle's name."""
        return self._name

    def type(self) -> DataType:
        """The element type (a DataType)."""
        return DataType(self._dtype.name)

    def shape(self) -> list[int]:
        """The current shape: the data's, else the reshaped or saved one."""
        if self._value is not None:
            return list(self._value.shape)
        return list(self._shape)

    def place(self) -> PlaceType:
        return PlaceType.CPU

    def reshape(self, shape: Sequence[int]) -> None:
        """Declare the shape of the data that copy_from_cpu will bring (it must be the saved shape: padax
        compiled the program for it)."""
        shape = tuple(int(d) for d in shape)
        if shape != self._saved_shape:
            raise ValueError(f"padax.inference.Tensor '{self._name}'.reshape: the program was saved for shape "
                             f"{list(self._saved_shape)}, got {list(shape)}; save the model once per shape you "
                             "serve (padax.jit.save with that input_spec)")
        self._shape = shape

    def copy_from_cpu(self, data: Any) -> None:
        """Give the input's data (a numpy array, converted to the handle's dtype where that is safe)."""
        if not self._is_input:
            raise TypeError(f"padax.inference.Tensor '{self._name}' is an output; copy_from_cpu is for inputs")
        host = np.asarray(data)
        if tuple(host.shape) != self._saved_shape:
            raise ValueError(f"padax.inference.Tensor '{self._name}'.copy_from_cpu: expected shape "
                             f"{list(self._saved_shape)} ({self._dtype.name}), got {list(host.shape)}")
        if host.dtype != self._dtype:
            if not np.can_cast(host.dtype, self._dtype, "same_kind"):
                raise TypeError(f"padax.inference.Tensor '{self._name}'.copy_from_cpu: expected "
                                f"{self._dtype.name} data, got {host.dtype.name}")
            host = host.astype(self._dtype)
        self._value = host

    def copy_to_cpu(self) -> np.ndarray:
        """The data as a numpy array (outputs: after `Predictor.run()`)."""
        if self._value is None:
            what = "call Predictor.run() first" if not self._is_input else "call copy_from_cpu first"
            raise RuntimeError(f"padax.inference.Tensor '{self._name}' holds no data: {what}")
        return np.asarray(self._value)

    def lod(self) -> list:
        return []

    def set_lod(self, lod: Any) -> None:
        if lod:
            raise ValueError("padax.inference.Tensor.set_lod: padax has no LoD tensors")

    def __repr__(self) -> str:
        return f"Tensor(name={self._name!r}, shape={self.shape()}, dtype={self._dtype.name})"


class _Shared:
    """What clones share: the loaded program (compiled once) and its weights on the device."""

    def __init__(self, config: Config):
        self.file = config.prog_file()
        if not os.path.exists(self.file):
            raise SavedProgramError(f"padax.inference.create_predictor: {self.file!r} does not exist (write it "
                                    "with padax.jit.save(model, prefix, input_spec=[...]))")
        self.model = _load(self.file)
        device = config._device()
        if device is not None:
            self.model = _to_device(self.model, device)
        spec = self.model.input_spec
        t = getattr(self.model, "_translated", None)
        names = (t.arg_names if t is not None else getattr(self.model, "arg_names", None)) or []
        if len(names) != len(spec):
            names = [s.name or f"x{i}" for i, s in enumerate(spec)]
        self.inputs = [(n, s.shape, s.dtype) for n, s in zip(names, spec)]
        self.outputs = [(f"output_{i}", o.shape, o.dtype) for i, o in enumerate(self.model.output_spec)]


def _to_device(model: Any, device: Any) -> Any:
    t = getattr(model, "_translated", None)
    if t is not None:
        model.to(device=device)
        t.consts = [device_put(c, device) for c in t.consts]
        t.vjp_consts = [device_put(c, device) for c in t.vjp_consts]
    else:
        model._params = [device_put(p, device) for p in model._params]
    return model


def _flat(out: Any) -> list:
    if isinstance(out, (list, tuple)):
        return [leaf for o in out for leaf in _flat(o)]
    if isinstance(out, dict):
        return [leaf for k in out for leaf in _flat(out[k])]
    return [out]


class Predictor:
    """Runs a saved program (Paddle's `paddle.inference.Predictor`); make it with `create_predictor(config)`.

    Args:
        config: the Config.
        shared: (internal) the program shared with the predictor this one is cloned from.

    Examples:
        >>> import os, tempfile, numpy as np, padax
        >>> net = padax.nn.Linear(3, 2)
        >>> x = np.ones([4, 3], np.float32)
        >>> with tempfile.TemporaryDirectory() as d:
        ...     padax.jit.save(net, os.path.join(d, "net"), input_spec=[x])
        ...     pred = padax.inference.create_predictor(padax.inference.Config(os.path.join(d, "net")))
        >>> pred.get_input_names(), pred.get_output_names()
        (['input'], ['output_0'])
        >>> h = pred.get_input_handle('input'); h.reshape([4, 3]); h.copy_from_cpu(x)
        >>> pred.run()
        True
        >>> out = pred.get_output_handle('output_0').copy_to_cpu()
        >>> bool(np.allclose(out, net(padax.to_tensor(x)).numpy()))
        True
    """

    def __init__(self, config: Config, shared: _Shared | None = None):
        self._config = config
        self._shared = shared if shared is not None else _Shared(config)
        self._inputs = {n: Tensor(n, s, d, True) for n, s, d in self._shared.inputs}
        self._outputs = {n: Tensor(n, s, d, False) for n, s, d in self._shared.outputs}

    def get_input_names(self) -> list[str]:
        """The inputs' names (the saved forward's argument names, or the InputSpec names)."""
        return list(self._inputs)

    def get_output_names(self) -> list[str]:
        """The outputs' names: output_0, output_1, ... (the saved outputs, flattened)."""
        return list(self._outputs)

    def get_input_handle(self, name: str) -> Tensor:
        """The handle of input `name`."""
        if name not in self._inputs:
            raise KeyError(f"Predictor.get_input_handle: no input {name!r}; the inputs are {list(self._inputs)}")
        return self._inputs[name]

    def get_output_handle(self, name: str) -> Tensor:
        """The handle of output `name`."""
        if name not in self._outputs:
            raise KeyError(f"Predictor.get_output_handle: no output {name!r}; the outputs are "
                           f"{list(self._outputs)}")
        return self._outputs[name]

    def get_input_tensor_shape(self) -> dict[str, list[int]]:
        return {n: list(s) for n, s, _ in self._shared.inputs}

    def run(self, inputs: Sequence[Any] | None = None) -> Any:
        """Run the program on the inputs' handles (returns True), or on `inputs`, a list of arrays in input
        order (returns the outputs as a list of padax Tensors, as Paddle 2.5+ does).

        Args:
            inputs: None (use the handles) or one array per input.

        Returns:
            True, or the list of outputs.
        """
        if inputs is None:
            missing = [n for n, h in self._inputs.items() if h._value is None]
            if missing:
                raise RuntimeError(f"Predictor.run: no data for inputs {missing}: call "
                                   "get_input_handle(name).copy_from_cpu(array) first")
            args = [h._value for h in self._inputs.values()]
        else:
            inputs = list(inputs)
            if len(inputs) != len(self._inputs):
                raise TypeError(f"Predictor.run: takes {len(self._inputs)} inputs {list(self._inputs)}, got "
                                f"{len(inputs)}")
            args = [a if hasattr(a, "aval") else np.asarray(a) for a in inputs]
        outs = _flat(self._shared.model(*args))
        for h, o in zip(self._outputs.values(), outs):
            h._value = o
        if inputs is None:
            return True
        return outs

    def clone(self) -> "Predictor":
        """A new predictor with its own handles that shares this one's program, executable and weights (for
        another thread: one predictor per thread)."""
        return Predictor(self._config, self._shared)

    def clear_intermediate_tensor(self) -> None:
        """Nothing to clear: XLA frees a program's temporaries after each run."""

    def try_shrink_memory(self) -> int:
        """Drop the outputs the handles hold; returns 0."""
        for h in self._outputs.values():
            h._value = None
        return 0

    def __repr__(self) -> str:
        return f"Predictor({self._shared.file!r}, inputs={self.get_input_names()}, outputs={self.get_output_names()})"


def create_predictor(config: Config) -> Predictor:
    """A Predictor for `config` (Paddle's `paddle.inference.create_predictor`).

    Args:
        config: the Config naming the saved model.

    Returns:
        The Predictor.

    Examples:
        >>> import os, tempfile, numpy as np, padax
        >>> with tempfile.TemporaryDirectory() as d:
        ...     padax.jit.save(padax.nn.ReLU(), os.path.join(d, "relu"), input_spec=[np.zeros([2], np.float32)])
        ...     pred = padax.inference.create_predictor(padax.inference.Config(os.path.join(d, "relu")))
        >>> [o.tolist() for o in pred.run([np.array([-1.0, 3.0], np.float32)])]
        [[0.0, 3.0]]
    """
    if not isinstance(config, Config):
        raise TypeError(f"padax.inference.create_predictor: expected a padax.inference.Config, got "
                        f"{type(config).__name__}")
    return Predictor(config)

