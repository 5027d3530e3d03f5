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

from typing import Any

from padax.devices import backend
from padax.devices.place import Place, place_of

_GPU_PLATFORMS = ("cuda", "rocm")
_GPU_NAMES = ("gpu", "cuda", "dcu", "rocm")
_KNOWN_NAMES = ("cpu",) + _GPU_NAMES + ("xpu", "npu", "ipu", "tpu")


def CPUPlace() -> Place:  # noqa: N802  (Paddle's class name)
    """The host CPU, as a Place (what `Tensor.place` shows for a Tensor on the CPU).

    Examples:
        >>> import padax
        >>> padax.CPUPlace(), padax.CPUPlace().is_cpu_place()
        (Place(cpu), True)
        >>> padax.device_put(padax.to_tensor([1.0]), padax.CPUPlace()).place == padax.CPUPlace()
        True
    """
    return Place("cpu")


def CUDAPlace(id: int = 0) -> Place:  # noqa: N802,A002
    """GPU `id`; a ValueError when padax has no GPU backend here (as Paddle's CPU build raises).

    Args:
        id: the GPU index.

    Returns:
        A Place for 'gpu:id'; raises ValueError when there is no such GPU.

    Examples:
        >>> import padax
        >>> try:
        ...     place = padax.CUDAPlace(0)
        ... except ValueError:  # no GPU backend installed
        ...     place = None
        >>> place in (None, padax.device.Place('gpu', 0))
        True
    """
    resolve_device(f"gpu:{int(id)}")
    return Place("gpu", id)


def XPUPlace(id: int = 0) -> Place:  # noqa: N802,A002
    """Kunlun XPU `id`: padax has no XPU backend, so this raises a ValueError naming what is available.

    Args:
        id: the XPU index.

    Returns:
        Never returns: padax has no XPU backend, so it raises ValueError.

    Examples:
        >>> import padax
        >>> padax.XPUPlace(0)
        Traceback (most recent call last):
        ...
        ValueError: padax.device: there is no 'xpu' backend here (...); available: cpu...
    """
    resolve_device(f"xpu:{int(id)}")
    return Place("xpu", id)


# ---- what is installed ---------------------------------------------------------------------------

def _platform_devices(platform: str) -> list:
    try:
        return backend.devices(platform)
    except RuntimeError:  # no PJRT plugin for it
        return []


def _gpu_devices() -> list:
    for p in _GPU_PLATFORMS:
        devs = _platform_devices(p)
        if devs:
            return devs
    return []


def is_compiled_with_cuda() -> bool:
    """True when a CUDA backend (a PJRT CUDA plugin) is installed and starts.

    Examples:
        >>> import padax
        >>> padax.is_compiled_with_cuda() == ('gpu' in padax.device.get_all_device_type())
        True
    """
    return bool(_platform_devices("cuda"))


def is_compiled_with_rocm() -> bool:
    """True when a ROCm backend (a PJRT ROCm plugin) is installed and starts.

    Examples:
        >>> import padax
        >>> padax.is_compiled_with_rocm()  # (no ROCm plugin here)
        False
    """
    return bool(_platform_devices("rocm"))


def is_compiled_with_xpu() -> bool:
    """padax has no Kunlun XPU backend: False.

    Examples:
        >>> import padax
        >>> padax.is_compiled_with_xpu()
        False
    """
    return False


def is_compiled_with_ipu() -> bool:
    """padax has no Graphcore IPU backend: False.

    Examples:
        >>> import padax
        >>> padax.is_compiled_with_ipu()
        False
    """
    return False


def is_compiled_with_cinn() -> bool:
    """padax compiles with XLA, not CINN: False.

    Examples:
        >>> import padax
        >>> padax.is_compiled_with_cinn()
        False
    """
    return False


def is_compiled_with_custom_device(device_type: str) -> bool:
    """padax has no Paddle custom-device plugins: False for every `device_type`.

    Args:
        device_type: the plugin name, e.g. 'npu'.

    Returns:
        False.

    Examples:
        >>> import padax
        >>> padax.is_compiled_with_custom_device('npu')
        False
    """
    return False


def is_compiled_with_distribute() -> bool:
    """padax.distributed (multi-process collectives) is always there: True.

    Examples:
        >>> import padax
        >>> padax.is_compiled_with_distribute()
        True
    """
    return True


def get_all_device_type() -> list[str]:
    """The device kinds padax can run on here: 'cpu', plus 'gpu' when a GPU backend is installed.

    Examples:
        >>> import padax
        >>> padax.device.get_all_device_type()  # on a machine without a GPU backend
        ['cpu']
    """
    return ["cpu"] + (["gpu"] if _gpu_devices() else [])


def get_all_custom_device_type() -> list[str]:
    """Paddle's custom-device plugins: none in padax.

    Examples:
        >>> import padax
        >>> padax.device.get_all_custom_device_type()
        []
    """
    return []


def get_available_device() -> list[str]:
    """Every device padax can run on here, as Paddle's strings ('cpu', 'gpu:0', ...).

    Examples:
        >>> import padax
        >>> padax.device.get_available_device()  # on a machine without a GPU backend
        ['cpu']
    """
    return ["cpu"] + [f"gpu:{d.id}" for d in _gpu_devices()]


def get_available_custom_device() -> list[str]:
    """Paddle's custom-device plugins: none in padax.

    Examples:
        >>> import padax
        >>> padax.device.get_available_custom_device()
        []
    """
    return []


def device_count() -> int:
    """The number of GPUs (0 without a GPU backend), as Paddle counts its accelerator devices.

    Examples:
        >>> import padax
        >>> padax.device.device_count() == len(padax.device.get_available_device()) - 1
        True
    """
    return len(_gpu_devices())


def is_available() -> bool:
    """Whether an accelerator (a GPU backend with at least one device) is available.

    Examples:
        >>> import padax
        >>> padax.device.is_available() == (padax.device.device_count() > 0)
        True
    """
    return device_count() > 0


# ---- choosing the device ---------------------------------------------------------------------------

def resolve_device(device: Any) -> Any:
    """A padax (jaxlib) device for Paddle's ways of naming one: 'cpu', 'gpu', 'gpu:1', 'cuda:0', a Place,
    an int (a GPU index), or a padax device itself."""
    if hasattr(device, "platform") and hasattr(device, "id"):
        return device
    if isinstance(device, Place):
        device = "cpu" if device.kind == "cpu" else f"{device.kind}:{device.index}"
    if isinstance(device, int) and not isinstance(device, bool):
        device = f"gpu:{device}"
    if not isinstance(device, str):
        raise ValueError(f"padax.device: expected a device name such as 'cpu', 'gpu' or 'gpu:0', a Place or an "
                         f"int, got {type(device).__name__}: {device!r}")
    name, _, idx = device.strip().lower().partition(":")
    if name not in _KNOWN_NAMES or (idx and not idx.isdigit()):
        raise ValueError(f"padax.device: the device must be a string like 'cpu', 'gpu', 'gpu:x' or 'xpu:x', "
                         f"got {device!r}")
    index = int(idx) if idx else 0
    if name == "cpu":
        devs = backend.devices("cpu")
    elif name in _GPU_NAMES:
        devs = _gpu_devices()
    else:
        devs = _platform_devices(name)
    if not devs:
        raise ValueError(f"padax.device: there is no {name!r} backend here (padax runs on the PJRT backends that "
                         f"are installed); available: {', '.join(get_available_device())}")
    if not 0 <= index < len(devs):
        raise ValueError(f"padax.device: {device!r} does not exist: there are {len(devs)} {name} device(s)")
    return devs[index]


def set_device(device: Any) -> Place:
    """Make `device` ('cpu', 'gpu', 'gpu:1', a Place, an int GPU index) the default device of new Tensors
    and compiled programs; returns its Place. Tensors made before stay where they are.

    Args:
        device: 'cpu', 'gpu', 'gpu:1', a Place, or an int GPU index.

    Returns:
        The Place of the new default device.

    Examples:
        >>> import padax
        >>> before = padax.get_device()
        >>> padax.set_device('cpu')
        Place(cpu)
        >>> padax.to_tensor([1.0]).place
        Place(cpu)
        >>> _ = padax.set_device(before)
    """
    dev = resolve_device(device)
    backend.set_default_device(dev)
    return place_of(dev)


def get_device(input: Any = None) -> str | int:  # noqa: A002  (Paddle's parameter name)
    """The default device as Paddle's string ('cpu', 'gpu:0'); given a Tensor, its GPU index (-1 on CPU).

    Args:
        input: a Tensor, or None for the default device.

    Returns:
        The default device as a string ('cpu', 'gpu:0'); for a Tensor, its GPU index (-1 on CPU).

    Examples:
        >>> import padax
        >>> padax.get_device()  # on a machine without a GPU backend
        'cpu'
        >>> padax.get_device(padax.device_put(padax.to_tensor(1.0), 'cpu'))
        -1
    """
    if input is not None:
        place = place_of(input.device)
        return -1 if place.kind == "cpu" else place.index
    place = place_of(backend.default_device())
    return "cpu" if place.kind == "cpu" else f"{place.kind}:{place.index}"


def set_default_device(device: Any) -> None:
    """set_device(device), returning nothing (Paddle's torch-style name).

    Args:
        device: as for `set_device`.

    Returns:
        None.

    Examples:
        >>> import padax
        >>> before = padax.get_default_device()
        >>> padax.set_default_device('cpu')
        >>> padax.get_default_device()
        'cpu'
        >>> padax.set_default_device(before)
    """
    set_device(device)


def get_default_device() -> str:
    """The default device as Paddle's string ('cpu', 'gpu:0'), as get_device().

    Examples:
        >>> import padax
        >>> padax.get_default_device() == padax.get_device()
        True
    """
    return get_device()


def synchronize(device: Any = None) -> None:
    """Wait until the device (default: the default device) has finished the work queued on it.

    Args:
        device: the device to wait for (as for `set_device`); None is the default device.

    Returns:
        None.

    Examples:
        >>> import padax
        >>> y = padax.to_tensor([1.0, 2.0]) * 2
        >>> padax.device.synchronize('cpu')
        >>> y.tolist()
        [2.0, 4.0]
    """
    backend.synchronize(backend.default_device() if device is None else resolve_device(device))


from padax.device import cuda, xpu  # noqa: E402,F401

__all__ = ["Place", "CPUPlace", "CUDAPlace", "XPUPlace", "set_device", "get_device", "set_default_device",
           "get_default_device", "synchronize", "device_count",
           "is_available", "is_compiled_with_cuda", "is_compiled_with_rocm", "is_compiled_with_xpu",
           "is_compiled_with_ipu", "is_compiled_with_cinn", "is_compiled_with_custom_device",
           "is_compiled_with_distribute", "get_all_device_type", "get_all_custom_device_type",
           "get_available_device", "get_available_custom_device", "cuda", "xpu"]
