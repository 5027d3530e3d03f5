"""A compiled program ready to run on device buffers and return Tensors."""
from __future__ import annotations

import re
from typing import Sequence

from padax.core.abstract import ShapedArray
from padax.core.errors import OutOfMemoryError
from padax.devices import _jaxlib
from padax.devices.array import Tensor
from padax.devices import backend
from padax.devices.backend import single_device_sharding
from padax.devices.host_callbacks import reraise_callback_error


def raise_if_out_of_memory(e: Exception, device) -> None:
    """XLA's RESOURCE_EXHAUSTED as padax's OutOfMemoryError (a MemoryError), saying how much and what to do."""
    text = str(e).strip()
    if not text.startswith("RESOURCE_EXHAUSTED"):
        return
    found = re.search(r"allocating (\d+) bytes", text)
    size = f" {int(found.group(1)) / 2 ** 30:.3g} GiB" if found else ""
    raise OutOfMemoryError(f"out of memory on {device}: a compiled program could not allocate{size} "
                           f"({text.splitlines()[0]}). Delete Tensors you no longer need, use smaller shapes or "
                           "batches, or free compiled programs with padax.clear_caches()") from None


class Executable:
    """Wraps a loaded executable with prebuilt result handlers (the fast path).

    `out_shardings` (jaxlib sharding objects, one per output) is given for
    programs whose results span several devices; by default every output
    lives on `device`. `host_callbacks` are the Python functions the program
    calls (kept alive with it); an exception one of them raises comes out of
    a call as itself (padax/devices/host_callbacks.py).
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
            if not self.host_callbacks:
                raise
            reraise_callback_error(e)
        return [Tensor(b, a) for b, a in zip(outs, self.out_avals)]
