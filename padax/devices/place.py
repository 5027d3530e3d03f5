"""Paddle's Place: where a Tensor lives, printed as Paddle prints it (`Place(cpu)`, `Place(gpu:0)`)."""
from __future__ import annotations

from typing import Any

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
