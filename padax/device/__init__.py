"""`padax.device`: Paddle's device names (`set_device`, `get_device`, places, `is_compiled_with_*`).

Paddle names devices with strings ('cpu', 'gpu', 'gpu:1', 'xpu:0') and Place
objects; padax runs on the PJRT backends that are installed (CPU always; a
GPU when a PJRT CUDA/ROCm plugin such as `jax-cuda12-plugin` is). The query
functions answer for what is installed here: `is_compiled_with_cuda()` is True
when a CUDA backend can be started, `cuda.device_count()` counts its devices.
Backends padax has no plugin for (XPU, IPU, NPU, custom devices) answer
False/0, and asking to run on them raises a ValueError that says what is
available.

`set_device(d)` makes `d` the default device for new Tensors and for compiled
programs; Tensors made before keep their device, as in Paddle.
"""
from __future__ import annotations

from padax.device._installed import (device_count, get_all_custom_device_type, get_all_device_type,
                                     get_available_custom_device,
                                     is_available, is_compiled_with_cinn, is_compiled_with_cuda,
                                     is_compiled_with_custom_device, is_compiled_with_distribute,
                                     is_compiled_with_ipu, is_compiled_with_rocm, is_compiled_with_xpu)
from padax.device._places import CPUPlace, CUDAPlace, XPUPlace
from padax.device._selection import get_default_device, get_device, set_default_device, set_device, synchronize
from padax.runtime.place import Place, _platform_devices, get_available_device, resolve_device
from padax.device import cuda, xpu

__all__ = ["Place", "CPUPlace", "CUDAPlace", "XPUPlace", "set_device", "get_device", "set_default_device",
           "get_default_device", "synchronize", "device_count",
           "is_available", "is_compiled_with_cuda", "is_compiled_with_rocm", "is_compiled_with_xpu",
           "is_compiled_with_ipu", "is_compiled_with_cinn", "is_compiled_with_custom_device",
           "is_compiled_with_distribute", "get_all_device_type", "get_all_custom_device_type",
           "get_available_device", "get_available_custom_device", "cuda", "xpu"]
