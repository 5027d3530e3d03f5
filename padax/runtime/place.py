"""Paddle's Place (where a Tensor lives, printed as Paddle prints it: `Place(cpu)`, `Place(gpu:0)`) and
Paddle's device names ('cpu', 'gpu:1', a Place, an int) resolved to padax devices."""
from __future__ import annotations

from typing import Any

from padax.runtime import backend

_GPU_PLATFORMS = ("cuda", "rocm")


class Place:
    """Where a Tensor lives, printed as Paddle prints it: `Place(cpu)`, `Place(gpu:0)`.

    Args:
        kind: 'cpu', 'gpu', 'xpu', ...
        index: the device's index within its kind (None, and ignored, for the CPU).

    Examples:
        >>> import padax
        >>> padax.device.Place('gpu', 1), padax.device.Place('gpu', 1).get_device_id()
        (Place(gpu:1), 1)
        >>> padax.device_put(padax.to_tensor([1.0]), 'cpu').place
        Place(cpu)
    """

    __slots__ = ("kind", "index")

    def __init__(self, kind: str = "cpu", index: int | None = None):
        self.kind = kind
        self.index = None if kind == "cpu" else int(index or 0)

    def __repr__(self) -> str:
        return "Place(cpu)" if self.kind == "cpu" else f"Place({self.kind}:{self.index})"

    __str__ = __repr__

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, Place):
            return (self.kind, self.index) == (other.kind, other.index)
        if isinstance(other, str):  # `x.place == "Place(cpu)"`
            return other == repr(self)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.kind, self.index))

    def is_cpu_place(self) -> bool:
        return self.kind == "cpu"

    def is_gpu_place(self) -> bool:
        return self.kind == "gpu"

    def is_xpu_place(self) -> bool:
        return self.kind == "xpu"

    def is_cuda_pinned_place(self) -> bool:
        return False

    def is_custom_place(self) -> bool:
        return self.kind not in ("cpu", "gpu", "xpu")

    def gpu_device_id(self) -> int:
        return self.index if self.kind == "gpu" else -1

    def get_device_id(self) -> int:
        return -1 if self.index is None else self.index


def place_of(device: Any) -> Place:
    """The Paddle Place of a padax (jaxlib) device."""
    if device.platform == "cpu":
        return Place("cpu")
    kind = "gpu" if device.platform in _GPU_PLATFORMS else device.platform
    return Place(kind, device.id)


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


def get_available_device() -> list[str]:
    """Every device padax can run on here, as Paddle's strings ('cpu', 'gpu:0', ...).

    Examples:
        >>> import padax
        >>> padax.device.get_available_device()  # on a machine without a GPU backend
        ['cpu']
    """
    return ["cpu"] + [f"gpu:{d.id}" for d in _gpu_devices()]


_GPU_NAMES = ("gpu", "cuda", "dcu", "rocm")


_KNOWN_NAMES = ("cpu",) + _GPU_NAMES + ("xpu", "npu", "ipu", "tpu")


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
