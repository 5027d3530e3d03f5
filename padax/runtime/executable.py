"""A compiled program ready to run on device buffers and return Tensors."""
from __future__ import annotations

import re
from typing import Sequence

from padax.core.abstract import ShapedArray
from padax.core.errors import OutOfMemoryError
from padax.core.source_info import user_location
from padax.runtime import _jaxlib, backend
from padax.runtime.array import Tensor
from padax.runtime.backend import single_device_sharding
from padax.runtime.ffi_targets import reraise_kernel_error
from padax.runtime.host_callbacks import reraise_callback_error


def out_of_memory_error(text: str, device, program: str | None = None, args: Sequence = ()) -> OutOfMemoryError:
    """padax's OutOfMemoryError for XLA's RESOURCE_EXHAUSTED `text`: how much, where and what to do; with
    `program` (e.g. "jit(step)") and its arguments, also which program, on what shapes, from which line.
    The error keeps `xla_text` and `device`, so that a caller knowing the program can name it."""
    found = re.search(r"allocating (\d+) bytes", text)
    size = f" {int(found.group(1)) / 2 ** 30:.3g} GiB" if found else ""
    what = "a compiled program"
    if program is not None:
        shapes = ", ".join(a.str_short() if isinstance(a, ShapedArray) else type(a).__name__
                           for a in (getattr(x, "aval", x) for x in args))
        what = f"{program} called with ({shapes}){user_location()}"
    err = OutOfMemoryError(f"out of memory on {device}: {what} could not allocate{size} "
                           f"({text.splitlines()[0]}). Delete Tensors you no longer need, use smaller shapes or "
                           "batches, or free compiled programs with padax.clear_caches()")
    err.xla_text, err.device = text, device
    return err


def raise_if_out_of_memory(e: Exception, device, program: str | None = None, args: Sequence = ()) -> None:
    """Raise out_of_memory_error for an XLA RESOURCE_EXHAUSTED error `e`; return for any other error."""
    text = str(e).strip()
    if text.startswith("RESOURCE_EXHAUSTED"):
        raise out_of_memory_error(text, device, program, args) from None


class Executable:
    """Wraps a loaded executable with prebuilt result handlers (the fast path).

    `out_shardings` (jaxlib sharding objects, one per output) is given for
    programs whose results span several devices; by default every output
    lives on `device`. `host_callbacks` are the Python functions the program
    calls (kept alive with it); an exception one of them raises comes out of
    a call as itself (padax/runtime/host_callbacks.py).
    """

    __slots__ = ("exe", "out_avals", "handlers", "device", "out_shardings", "host_callbacks")

    def __init__(self, exe, out_avals: Sequence[ShapedArray], device, out_shardings: Sequence | None = None,
                 host_callbacks: Sequence = ()):
        self.exe = exe
        self.out_avals = list(out_avals)
        self.device = device
        if out_shardings is None:
            out_shardings = [single_device_sharding(device)] * len(self.out_avals)
        self.out_shardings = list(out_shardings)
        self.handlers = [_jaxlib.result_handler(a, s) for a, s in zip(self.out_avals, self.out_shardings)]
        self.host_callbacks = tuple(host_callbacks)

    def run_buffers(self, bufs: list) -> list:
        if backend._forked_after_client:
            backend.check_not_forked()
        try:
            return self.exe.execute_sharded(bufs).consume_with_handlers(self.handlers)
        except _jaxlib.XlaRuntimeError as e:
            raise_if_out_of_memory(e, self.device)
            reraise_kernel_error(e, (self.exe,))
            if not self.host_callbacks:
                raise
            reraise_callback_error(e)

    def __call__(self, bufs: list) -> list[Tensor]:
        if backend._forked_after_client:
            backend.check_not_forked()
        try:
            outs = self.exe.execute_sharded(bufs).consume_with_handlers(self.handlers)
        except _jaxlib.XlaRuntimeError as e:
            raise_if_out_of_memory(e, self.device)
            reraise_kernel_error(e, (self.exe,))
            if not self.host_callbacks:
                raise
            reraise_callback_error(e)
        return [Tensor(b, a) for b, a in zip(outs, self.out_avals)]
