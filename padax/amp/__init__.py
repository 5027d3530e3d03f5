"""`padax.amp`: Paddle's automatic mixed precision.

`auto_cast` runs matmuls and convolutions in float16/bfloat16 and keeps reductions, exp/log
(so softmax, norms and losses) in float32, by a cast policy applied to every primitive bound
inside it (eager, jit, grad). `decorate(level='O2')` makes parameters low precision and gives the
optimizers float32 master weights. `GradScaler` is dynamic loss scaling, also as a pure state
transition for a jitted step.
"""
from __future__ import annotations

from typing import Any

import padax
from padax.amp import debugging  # noqa: F401
from padax.amp.auto_cast import (amp_guard, auto_cast, autocast, decorate, get_autocast_dtype,
                                 is_autocast_enabled)
from padax.amp.grad_scaler import AmpScaler, GradScaler, OptimizerState, all_finite
from padax.amp.lists import black_list, white_list

amp_decorate = decorate
get_autocast_cpu_dtype = get_autocast_dtype
get_autocast_gpu_dtype = get_autocast_dtype


def _platform(device: Any) -> str:
    if device is None:
        return padax.devices()[0].platform
    return str(getattr(device, "platform", device)).split(":")[0].lower()


def is_float16_supported(device: Any = None) -> bool:
    """Whether float16 mixed precision runs on `device` (a name like 'cpu'/'gpu'/'gpu:0', a Device, or None
    for the default device). XLA computes float16 on every backend padax runs on (CPU, GPU, TPU).

    Args:
        device: a name like 'cpu', 'gpu' or 'gpu:0', a Device, or None for the default device.

    Returns:
        True on CPU, GPU and TPU backends.

    Examples:
        >>> import padax
        >>> padax.amp.is_float16_supported("cpu"), padax.amp.is_float16_supported()
        (True, True)
    """
    return _platform(device) in ("cpu", "gpu", "cuda", "rocm", "tpu")


def is_bfloat16_supported(device: Any = None) -> bool:
    """Whether bfloat16 mixed precision runs on `device` (as `is_float16_supported`).

    Args:
        device: a name like 'cpu', 'gpu' or 'gpu:0', a Device, or None for the default device.

    Returns:
        True on CPU, GPU and TPU backends.

    Examples:
        >>> import padax
        >>> padax.amp.is_bfloat16_supported("cpu")
        True
    """
    return _platform(device) in ("cpu", "gpu", "cuda", "rocm", "tpu")


__all__ = ["auto_cast", "amp_guard", "autocast", "decorate", "amp_decorate", "GradScaler", "AmpScaler",
           "OptimizerState", "all_finite", "is_float16_supported", "is_bfloat16_supported", "is_autocast_enabled",
           "get_autocast_dtype", "get_autocast_cpu_dtype", "get_autocast_gpu_dtype", "white_list", "black_list"]
