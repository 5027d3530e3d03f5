"""The one gateway to jaxlib's private Python surface (with lowering/_mlir.py).

Everything padax needs from `jaxlib._jax` and `xla_client` is imported
here and wrapped in small functions, so a jaxlib upgrade touches one file.

It also installs an import guard: jaxlib's C++ runs `import
jax._src.sharding_impls` whenever it creates a single-device array (for
example on the first read-back of a result). With jax installed that would
silently import all of jax (~0.6 s) and let jax patch jaxlib's classes;
without jax each failed attempt costs ~60 us. The guard refuses `jax`
imports *only* when the innermost Python caller is padax itself, so users
(and tests using jax as an oracle) can still `import jax` normally.
"""
from __future__ import annotations

import collections
import importlib.abc
import os
import re
import sys

_PADAX_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


class _BlockJaxFromPadax(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if fullname != "jax" and not fullname.startswith("jax."):
            return None
        f = sys._getframe(1)
        while f is not None and f.f_code.co_filename.startswith("<frozen"):
            f = f.f_back  # importlib's own frames
        if f is not None and f.f_code.co_filename.startswith(_PADAX_DIR):
            raise ModuleNotFoundError(f"padax does not import {fullname}", name=fullname)
        return None


if not any(isinstance(f, _BlockJaxFromPadax) for f in sys.meta_path):
    sys.meta_path.insert(0, _BlockJaxFromPadax())

# padax.config sets jaxlib's C++ log level (TF_CPP_MIN_LOG_LEVEL), which jaxlib reads once, on import
import padax.config  # noqa: E402,F401

# isort: split
import jaxlib  # noqa: E402
from jaxlib import _jax, _profiler, xla_client  # noqa: E402

JAXLIB_VERSION: str = jaxlib.__version__
Device = _jax.Device
ArrayImpl = _jax.ArrayImpl
XlaRuntimeError = xla_client.XlaRuntimeError
LoadedExecutable = _jax.LoadedExecutable


def make_cpu_client(num_devices: int = 1, asynchronous: bool = False):
    """The CPU client; `asynchronous=False` runs single-device programs on the calling thread."""
    if num_devices > 1:
        return xla_client.make_cpu_client(asynchronous=asynchronous, num_devices=num_devices)
    return xla_client.make_cpu_client(asynchronous=asynchronous)


def make_plugin_client(platform: str):
    """A PJRT client from a plugin (e.g. 'cuda' from jax-cuda12-plugin) if it is installed."""
    import importlib
    for modname in (f"jax_{platform}12_plugin", f"jax_{platform}13_plugin", f"jax_{platform}_plugin"):
        try:
            mod = importlib.import_module(modname)
        except ImportError:
            continue
        path = getattr(mod, "_get_library_path", lambda: None)()
        if path is None:
            continue
        if not xla_client.pjrt_plugin_loaded(platform):
            xla_client.load_pjrt_plugin_dynamically(platform, path)
        if not xla_client.pjrt_plugin_initialized(platform):
            xla_client.initialize_pjrt_plugin(platform)
        return xla_client.make_c_api_client(platform, {}, None)
    return None


def device_list(devices) -> object:
    return xla_client.DeviceList(tuple(devices))


def replicated_sharding(devices):
    return _jax.GSPMDSharding(xla_client.DeviceList(tuple(devices)), xla_client.HloSharding.replicate())


def device_put(aval, sharding, host_arrays, devices, enable_x64: bool):
    return _jax.batched_device_put(aval, sharding, host_arrays, devices, True, True,
                                   enable_x64=enable_x64)


def result_handler(aval, sharding):
    return _jax.array_result_handler(aval, sharding, True, _skip_checks=True)


def to_numpy(buf):
    """Host copy of a single-device array (read-only ndarray)."""
    return buf._single_device_array_to_np_array_did_copy()[0]


def gspmd_sharding(devices, hlo_sharding):
    """jaxlib's C++ GSPMDSharding: a device list plus an HloSharding over its positions."""
    return _jax.GSPMDSharding(xla_client.DeviceList(tuple(devices)), hlo_sharding)


def hlo_sharding_replicated():
    return xla_client.HloSharding.replicate()


def hlo_sharding_tiled(tile_dims, device_positions, last_dim_replicated: bool):
    """HloSharding of a tile grid `tile_dims` whose entries (row-major) are device positions."""
    text = "{devices=[" + ",".join(map(str, tile_dims)) + "]" + ",".join(map(str, device_positions))
    if last_dim_replicated:
        text += " last_tile_dim_replicate"
    return xla_client.HloSharding.from_string(text + "}")


def hlo_sharding_from_string(text: str):
    return xla_client.HloSharding.from_string(text)


def array_device(buf):
    """The device of a single-device jaxlib array."""
    return buf._sharding._internal_device_list[0]


def assemble_array(aval, sharding, arrays):
    """A multi-device jaxlib array from single-device ones (in the sharding's device order), no copy."""
    return _jax.ArrayImpl(aval, sharding, list(arrays), True, _skip_checks=True)


def output_hlo_shardings(exe):
    """The HloSharding XLA chose for each output of a compiled SPMD program (None if unknown)."""
    protos = exe.get_output_shardings()
    if protos is None:
        return None
    return [xla_client.HloSharding.from_proto(p) for p in protos]


def compile_options(num_replicas: int = 1, num_partitions: int = 1, device_assignment=None,
                    propagate_outputs=()):
    """CompileOptions; for SPMD programs (num_partitions > 1) XLA's Shardy partitioner is switched on
    (the programs are in Shardy's form: `sdy.mesh`, `sdy.sharding`, `sdy.manual_computation`) and
    `propagate_outputs` says, per result, whether XLA may choose its sharding."""
    opts = xla_client.CompileOptions()
    opts.num_replicas = num_replicas
    opts.num_partitions = num_partitions
    if device_assignment is not None:
        import numpy as np
        opts.device_assignment = xla_client.DeviceAssignment.create(np.asarray(device_assignment, dtype=np.int32))
    if num_partitions > 1:
        opts.executable_build_options.use_spmd_partitioning = True
        opts.executable_build_options.use_shardy_partitioner = True
        if any(propagate_outputs):
            opts.executable_build_options.allow_spmd_sharding_propagation_to_output = list(propagate_outputs)
    return opts


def compile(client, module: bytes | str, devices, options, host_callbacks=(), module_object=None):
    """A loaded executable. Programs that call back into Python pass the functions (in custom-call
    index order) and the MLIR module object itself (that overload takes no bytecode)."""
    if host_callbacks:
        return client.compile_and_load(module_object, xla_client.DeviceList(tuple(devices)), options,
                                       list(host_callbacks))
    return client.compile_and_load(module, xla_client.DeviceList(tuple(devices)), options)


def executable_hlo_text(exe) -> str:
    """The optimised HLO of a compiled program (all its modules)."""
    return "\n".join(m.to_string() for m in exe.hlo_modules())


def executable_cost_analysis(exe) -> dict:
    return exe.cost_analysis()


def executable_memory_stats(exe):
    return exe.get_compiled_memory_stats()


def serialize_compile_options(options) -> bytes:
    return options.SerializeAsString()


def serialize_executable(client, exe) -> bytes:
    return client.serialize_executable(exe)


def deserialize_executable(client, data: bytes, devices, options):
    return client.deserialize_executable(data, xla_client.DeviceList(tuple(devices)), options)


def new_pytree_registry():
    """A fresh C++ pytree registry (None/tuple/namedtuple/list/dict built in)."""
    return _jax.pytree.PyTreeRegistry(enable_none=True, enable_tuple=True, enable_namedtuple=True,
                                      enable_list=True, enable_dict=True)


def pytree_treedef_tuple(registry, treedefs):
    return _jax.pytree.treedef_tuple(registry, list(treedefs))


PyTreeDef = _jax.pytree.PyTreeDef
# the entries of a tree path, as flatten_with_path produces them
DictKey = _jax.pytree.DictKey
SequenceKey = _jax.pytree.SequenceKey
GetAttrKey = _jax.pytree.GetAttrKey
FlattenedIndexKey = _jax.pytree.FlattenedIndexKey


_lapack_registered = False
_lapack_initialized = False


def register_lapack_targets() -> None:
    """Make jaxlib's LAPACK kernels resolvable from CPU programs (idempotent, ~1 ms).

    padax.linalg lowers decompositions to `stablehlo.custom_call @lapack_*_ffi`;
    XLA looks those names up in its custom-call registry, which starts empty.
    jaxlib ships the typed-FFI handlers as PyCapsules; registering them (before
    or after the CPU client exists) makes them resolvable. The kernels also
    need `initialize_lapack()` before they first run.
    """
    global _lapack_registered
    if _lapack_registered:
        return
    from jaxlib.cpu import _lapack
    for name, capsule in _lapack.registrations().items():
        if name.endswith("_ffi"):
            xla_client.register_custom_call_target(name, capsule, platform="cpu", api_version=1)
            xla_client.register_custom_call_as_batch_partitionable(name)
    _lapack_registered = True


def initialize_lapack() -> None:
    """Hand jaxlib's LAPACK kernels scipy's LAPACK/BLAS function pointers (idempotent).

    Mandatory before a program with a LAPACK custom call executes (otherwise
    the process crashes), but it imports scipy.linalg (~0.4 s), so it is done
    lazily: the linalg lowering rules call it when they emit such a call.
    """
    global _lapack_initialized
    if _lapack_initialized:
        return
    register_lapack_targets()
    from jaxlib.cpu import _lapack
    _lapack.initialize()
    _lapack_initialized = True


def register_custom_call_target(name: str, capsule, platform: str, api_version: int) -> None:
    """Register a custom-call target with XLA (padax.ffi.register_ffi_target; api_version 1 is typed FFI)."""
    xla_client.register_custom_call_target(name, capsule, platform=platform, api_version=api_version)


def jaxlib_include_dir() -> str:
    """The C/C++ headers jaxlib ships (xla/ffi/api/ffi.h, the typed-FFI API)."""
    return os.path.join(os.path.dirname(os.path.abspath(jaxlib.__file__)), "include")


def custom_calls_of(loaded_executable) -> set:
    """The custom-call target names a compiled program calls (read from its HLO; for error messages)."""
    try:
        text = "\n".join(m.to_string() for m in loaded_executable.hlo_modules())
    except Exception:  # noqa: BLE001 (an executable without HLO, e.g. deserialised from elsewhere)
        return set()
    return set(re.findall(r'custom_call_target="([^"]+)"', text))


def custom_call_target_names(platform: str) -> set:
    """The custom-call target names XLA's registry holds for `platform` (those registered so far)."""
    try:
        return set(xla_client.custom_call_targets(platform))
    except Exception:  # noqa: BLE001 (an unknown platform name)
        return set()


# What a compiled program may need set up in its process before it runs, by name (lowering rules ask for it
# with padax.lowering.mlir.require_runtime; the persistent cache records it with the program).
RUNTIME_SETUP = {"lapack": initialize_lapack}


# ---- multi-process: the distributed runtime (coordination service + clients) and gloo ----------

def start_distributed_service(address: str, num_nodes: int, heartbeat_timeout: int,
                              cluster_register_timeout: int, shutdown_timeout: int):
    """The coordination service every process registers with (run by process 0)."""
    return _jax.get_distributed_runtime_service(address, num_nodes, heartbeat_timeout=heartbeat_timeout,
                                                cluster_register_timeout=cluster_register_timeout,
                                                shutdown_timeout=shutdown_timeout)


def connect_distributed_client(address: str, node_id: int, init_timeout: int, heartbeat_timeout: int,
                               shutdown_timeout: int, rpc_timeout: int, missed_heartbeat_callback=None):
    """A connected client of the coordination service (raises XlaRuntimeError on timeout)."""
    kwargs = dict(rpc_timeout=rpc_timeout, init_timeout=init_timeout, shutdown_timeout=shutdown_timeout,
                  heartbeat_timeout=heartbeat_timeout, use_compression=True)
    if missed_heartbeat_callback is not None:
        kwargs["missed_heartbeat_callback"] = missed_heartbeat_callback
    client = _jax.get_distributed_runtime_client(address, node_id, **kwargs)
    client.connect()
    return client


def make_distributed_cpu_client(distributed_client, node_id: int, num_nodes: int, num_devices: int = 1,
                                asynchronous: bool = False):
    """A CPU client whose devices span all processes; collectives between processes go through gloo."""
    collectives = _jax.make_gloo_tcp_collectives(distributed_client=distributed_client)
    kwargs = dict(distributed_client=distributed_client, node_id=node_id, num_nodes=num_nodes,
                  collectives=collectives, asynchronous=asynchronous)
    if num_devices > 1:
        kwargs["num_devices"] = num_devices
    return xla_client.make_cpu_client(**kwargs)


# ---- the C++ jit dispatch (jaxlib's pjit fast path) ------------------------------------------------

# What a cache miss hands the C++ dispatcher so that later calls with the same argument
# signature run without Python: the executable, the output tree (of the dispatch registry,
# so it rebuilds padax Tensors), per-argument and per-output shardings, output avals.
JitFastPath = collections.namedtuple(
    "JitFastPath", ["xla_executable", "out_pytree_def", "in_shardings", "out_shardings", "out_avals",
                    "out_committed", "kept_var_bitvec", "in_device_local_layouts", "const_args"])

_jit_runtime_ready = False


def _ensure_jit_runtime_state() -> None:
    """The C++ dispatcher reads three process-wide states; set them unless jax already has.

    padax never depends on their values: its own settings enter the cache key through
    `jit_key_config` objects (so jax's and padax's settings cannot leak into each other).
    """
    global _jit_runtime_ready
    if _jit_runtime_ready:
        return
    if "jax._src.config" not in sys.modules:  # jax sets these itself at import
        jj = _jax.jax_jit
        jj.set_enable_x64_state(_jax.config.Config("padax_runtime_x64", False))
        jj.set_disable_jit_state(_jax.config.Config("padax_runtime_disable_jit", False))
        jj.set_post_hook_state(_jax.config.Config("padax_runtime_post_hook", None))
    _jit_runtime_ready = True


def jit_key_config(name: str, value):
    """A setting the C++ dispatcher adds to every cache key (`.set_global` / `.set_local` update it)."""
    return _jax.config.Config(name, value, include_in_jit_key=True)


def jit_dispatch_cache(capacity: int):
    """A cache of C++ dispatch entries shared by the jitted functions created with it."""
    return _jax.PjitFunctionCache(capacity=capacity)


def cpp_jit(name: str, fun, cache_miss, static_argnums, static_argnames, cache_key, registry, cache):
    """A callable that dispatches cached calls in C++ and calls `cache_miss(*args, **kw)` otherwise.

    `cache_miss` returns `(outputs, JitFastPath or None, False)`; None means "always ask Python
    for this argument signature". Arguments are flattened with `registry`.
    """
    _ensure_jit_runtime_state()
    return _jax.pjit(name, fun, cache_miss, list(static_argnums), list(static_argnames), cache_key,
                     registry, _no_shard_arg_fallback, cache)


def _no_shard_arg_fallback(arg, sharding, *rest):
    raise TypeError(f"jit: cannot pass a {type(arg).__name__} to a compiled program")


# ---- XLA's profiler (padax/runtime/profiling.py) ---------------------------------------------------

TraceMe = _profiler.TraceMe  # a named span; TraceMe.is_enabled() says whether a session records


def profiler_session(host_tracer_level: int, python_tracer_level: int):
    """Start a profiler session (it records until .stop() / .stop_and_export(log_dir))."""
    options = _profiler.ProfileOptions()
    options.host_tracer_level = host_tracer_level
    options.python_tracer_level = python_tracer_level
    options.raise_error_on_start_failure = True
    return _profiler.ProfilerSession(options)


def profiler_server(port: int):
    return _profiler.start_server(port)


def xspace_planes(xspace: bytes):
    """The planes (with their lines and events) of a serialized XSpace."""
    from jaxlib import _profile_data
    return _profile_data.ProfileData.from_serialized_xspace(xspace).planes
