"""`padax.ffi`: calling native (C/C++) kernels from compiled code through XLA's typed FFI, as `jax.ffi`.

A kernel written against XLA's FFI header (`include_dir()`/xla/ffi/api/ffi.h) and compiled into a shared
library is registered once per process with `register_ffi_target(name, pycapsule(lib.fn))`; `ffi_call(name,
result_shape_dtypes)(*operands, **attributes)` then calls it, eagerly or inside `jit` (a
`stablehlo.custom_call`: no Python runs per call), under `vmap` (say how with `vmap_method`), inside control
flow, and differentiated through `padax.custom_vjp`/`custom_jvp` (the call itself has no derivative).
See docs/native_code.md for when to write one, and `padax.utils.cpp_extension` for Paddle's way (C++ ops
with PD_BUILD_OP compiled at run time).
"""
from __future__ import annotations

import ctypes
from typing import Any, Callable

import numpy as np

from padax.functional.lax.ffi import VMAP_METHODS, HashableArray, ffi_call_p
from padax.runtime import _jaxlib, ffi_targets
from padax.runtime.ffi_targets import FfiKernelError
from padax.transforms.callback import _operands, _result_avals

__all__ = ["ffi_call", "register_ffi_target", "pycapsule", "include_dir", "FfiKernelError"]


def include_dir() -> str:
    """The directory of the XLA FFI headers shipped with jaxlib: compile kernels with `-I include_dir()`.

    Returns:
        A path holding `xla/ffi/api/ffi.h` (the C++ API), `api.h` and `c_api.h`.

    Examples:
        >>> import os, padax.ffi
        >>> os.path.exists(os.path.join(padax.ffi.include_dir(), "xla", "ffi", "api", "ffi.h"))
        True
    """
    return _jaxlib.jaxlib_include_dir()


# a prototype of our own: setting argtypes on the shared ctypes.pythonapi.PyCapsule_New would change it for
# every other user in the process (and theirs would change ours)
_PyCapsule_New = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p)(
    ("PyCapsule_New", ctypes.pythonapi))


def pycapsule(funcptr: Any) -> Any:
    """Wrap a function pointer (a ctypes function from a loaded library, or an address) in a PyCapsule.

    The capsule is what `register_ffi_target` hands to XLA. The library must stay loaded (keep the
    ctypes handle alive) for as long as programs calling it may run.

    Args:
        funcptr: e.g. `ctypes.cdll.LoadLibrary("libk.so").MyHandler`, or an int address.

    Returns:
        An unnamed PyCapsule holding the pointer.

    Examples:
        >>> import ctypes, padax.ffi
        >>> type(padax.ffi.pycapsule(ctypes.CDLL(None).abs)).__name__   # any C function's address
        'PyCapsule'
    """
    addr = funcptr if isinstance(funcptr, int) else ctypes.cast(funcptr, ctypes.c_void_p).value
    if not addr:
        raise ValueError(f"pycapsule: {funcptr!r} is a null function pointer")
    return _PyCapsule_New(addr, None, None)


def register_ffi_target(name: str, fn: Any, platform: str = "cpu", api_version: int = 1) -> None:
    """Register a native handler as custom-call target `name`, so that `ffi_call(name, ...)` reaches it.

    Args:
        name: the target name programs call.
        fn: the handler: a PyCapsule (`pycapsule(lib.fn)`), a ctypes function pointer (wrapped for you), or
            a dict of capsules by execution stage ({"execute": ...}, as XLA accepts).
        platform: "cpu" (or "cuda"/"gpu", "rocm").
        api_version: 1 for XLA's typed FFI (the default, XLA_FFI_DEFINE_HANDLER), 0 for the legacy
            untyped custom-call API.
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"register_ffi_target: name must be a non-empty str, got {name!r}")
    if isinstance(fn, ctypes._CFuncPtr):
        fn = pycapsule(fn)
    ffi_targets.register(name, fn, platform, int(api_version))


def _hashable_attrs(target_name: str, kwargs: dict) -> tuple:
    out = []
    for k, v in sorted(kwargs.items()):
        if isinstance(v, np.ndarray):
            v = HashableArray(v)
        elif isinstance(v, dict):
            v = _FrozenDict(sorted(v.items()))
        elif isinstance(v, list):
            v = tuple(v)
        try:
            hash(v)
        except TypeError:
            raise TypeError(f"ffi_call({target_name!r}): attribute {k}={v!r} is not hashable; use int, float, "
                            "bool, str, a numpy scalar or array, a dtype, a dict or a tuple") from None
        out.append((k, v))
    return tuple(out)


class _FrozenDict(dict):
    """A dict attribute made hashable (its items are fixed once the call is made)."""

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(self.items()))


def ffi_call(target_name: str, result_shape_dtypes: Any, *, has_side_effect: bool = False,
             vmap_method: str | None = None,
             input_output_aliases: dict[int, int] | None = None) -> Callable[..., Any]:
    """A function calling the native FFI target `target_name`: `ffi_call(name, out)(*operands, **attributes)`.

    Args:
        target_name: a target registered with `register_ffi_target` (checked when the call is compiled).
        result_shape_dtypes: a `padax.ShapeDtypeStruct` (or array) for one result, or a tuple/list of them.
        has_side_effect: keep the call even when its results are unused.
        vmap_method: how `vmap` batches the call: "sequential" (a loop, one call per element),
            "sequential_unrolled" (the loop unrolled in the program), "expand_dims" (one call with the batch
            axis in front; unbatched operands get a leading axis of size 1) or "broadcast_all" (one call;
            every operand broadcast to the batch). None: vmapping the call is an error.
        input_output_aliases: {operand index: result index} pairs whose buffers are shared (the kernel
            updates the operand in place); the two must have the same shape and dtype.

    Returns:
        A function of the operands (arrays) and keyword attributes (int, float, bool, str, numpy scalars and
        arrays, dtypes; passed to the kernel by name) returning a Tensor, or a tuple/list of Tensors.

    Examples:
        Tracing needs no kernel (compiling and running it does: see docs/native_code.md):

        >>> import numpy as np, padax, padax.ffi
        >>> scale = padax.ffi.ffi_call("my_scale", padax.ShapeDtypeStruct((3,), "float32"), vmap_method="sequential")
        >>> print(padax.make_jaxpr(lambda x: scale(x, factor=np.float32(2.0)))(padax.ones([3])))
        { lambda ; a:f32[3]. let
            b:f32[3] = ffi_call[target_name='my_scale', ..., attributes=(('factor', np.float32(2.0)),), ...] a
          in (b,) }
    """
    if vmap_method is not None and vmap_method not in VMAP_METHODS:
        raise ValueError(f"ffi_call({target_name!r}): vmap_method must be one of {', '.join(VMAP_METHODS)} or "
                         f"None, got {vmap_method!r}")
    what = f"ffi_call({target_name!r})"
    multiple = isinstance(result_shape_dtypes, (tuple, list))
    avals, _ = _result_avals(what, list(result_shape_dtypes) if multiple else [result_shape_dtypes])
    avals = tuple(avals)

    def call(*args: Any, **kwargs: Any):
        leaves, in_tree = _operands(args, {})
        if len(leaves) != len(args):
            raise TypeError(f"{what}: the operands must be arrays, not containers; got {in_tree}")
        aliases = []
        for i, o in sorted((input_output_aliases or {}).items()):
            i, o = int(i), int(o)
            if not 0 <= i < len(leaves) or not 0 <= o < len(avals):
                raise ValueError(f"{what}: input_output_aliases maps operand {i} to result {o}, but the call has "
                                 f"{len(leaves)} operands and {len(avals)} results")
            a_out = avals[o]
            shape, dtype = tuple(leaves[i].shape), np.dtype(leaves[i].dtype)
            if shape != a_out.shape or dtype != a_out.dtype:
                raise ValueError(f"{what}: input_output_aliases maps operand {i} ({dtype.name}{list(shape)}) to "
                                 f"result {o} ({a_out.str_short()}); aliased buffers need the same shape and dtype")
            aliases.append((i, o))
        outs = ffi_call_p.bind(*leaves, target_name=target_name, result_avals=avals, vmap_method=vmap_method,
                               input_output_aliases=tuple(aliases), attributes=_hashable_attrs(target_name, kwargs),
                               has_side_effect=bool(has_side_effect))
        if not multiple:
            return outs[0]
        return type(result_shape_dtypes)(outs) if isinstance(result_shape_dtypes, (tuple, list)) else outs

    call.__name__ = f"ffi_call_{target_name}"
    return call
