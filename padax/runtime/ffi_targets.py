"""Native (XLA typed-FFI) custom-call targets: which names padax registered, and their kernels' errors.

`padax.ffi.register_ffi_target` registers a handler with XLA through `register` here, which also records
the name, so that lowering an `ffi_call` to an unknown name fails at once with padax's message (the
lowering asks `is_registered`), not with XLA's at run time. A handler that returns an error makes the
program fail with an XlaRuntimeError; `reraise_kernel_error` (called where programs run) turns it into
`FfiKernelError`, which says that the user's kernel failed and gives its message.
"""
from __future__ import annotations

import threading
from typing import Iterable

from padax.core.errors import PadaxError
from padax.runtime import _jaxlib

_PLATFORMS = {"cpu": "cpu", "host": "cpu", "gpu": "cuda", "cuda": "cuda", "rocm": "rocm"}

_lock = threading.Lock()
_registered: dict[str, set[str]] = {}  # platform -> names registered through padax


class FfiKernelError(PadaxError, RuntimeError):
    """A native kernel called through padax.ffi (or a cpp_extension op) reported an error while it ran.

    The message is the kernel's own; the error is in the user's kernel (or its inputs), not in padax.
    """


def canonical_platform(platform: str) -> str:
    """'cpu', 'cuda' or 'rocm' for the platform names users write ('cpu', 'gpu', 'CUDA', ...)."""
    p = _PLATFORMS.get(str(platform).lower())
    if p is None:
        raise ValueError(f"register_ffi_target: unknown platform {platform!r}; use 'cpu', 'cuda' or 'rocm'")
    return p


def register(name: str, capsule, platform: str = "cpu", api_version: int = 1) -> None:
    """Register `capsule` (an XLA FFI handler) as custom-call target `name` on `platform`."""
    platform = canonical_platform(platform)
    _jaxlib.register_custom_call_target(name, capsule, platform, api_version)
    with _lock:
        _registered.setdefault(platform, set()).add(name)


def is_registered(name: str, platform: str) -> bool:
    """Whether XLA can resolve target `name` on `platform` (registered through padax or by jaxlib)."""
    platform = canonical_platform(platform)
    with _lock:
        if name in _registered.get(platform, ()):
            return True
    return name in _jaxlib.custom_call_target_names(platform)


def registered_names() -> set[str]:
    """The target names registered through padax (any platform)."""
    with _lock:
        return set().union(*_registered.values()) if _registered else set()


def kernel_error(error: BaseException, executables: Iterable = ()) -> FfiKernelError | None:
    """padax's error for an XLA run-time error that a native kernel reported, else None.

    A cpp_extension kernel's message carries a marker with its op's name (paddle/extension.h). Otherwise,
    if the failed program (one of `executables`, loaded XLA executables) calls targets registered through
    padax, the error is attributed to them, with the handler's own message.
    """
    if not isinstance(error, (_jaxlib.XlaRuntimeError, ValueError)) or isinstance(error, PadaxError):
        return None
    text = str(error)
    marker = "padax-kernel-error: "
    if marker in text:
        return FfiKernelError(f"the native kernel {text.split(marker, 1)[1].strip()}")
    mine = registered_names()
    if not mine or text.startswith("RESOURCE_EXHAUSTED"):
        return None
    names: set[str] = set()
    for exe in executables:
        names |= _jaxlib.custom_calls_of(exe) & mine
    if not names:
        return None
    which = ", ".join(repr(n) for n in sorted(names))
    return FfiKernelError(f"the native kernel of FFI target {which} failed: {text}")


def reraise_kernel_error(error: BaseException, executables: Iterable = ()) -> None:
    """Raise FfiKernelError in place of `error` when a native kernel reported it; else return."""
    exc = kernel_error(error, executables)
    if exc is not None:
        raise exc from None


