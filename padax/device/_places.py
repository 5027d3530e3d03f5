"""padax.device's Place constructors with Paddle's class names: CPUPlace, CUDAPlace, XPUPlace."""
from __future__ import annotations

from padax.runtime.place import Place, resolve_device


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
