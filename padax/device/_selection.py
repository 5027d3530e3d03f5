"""padax.device's choice of device: Paddle's ways of naming one ('cpu', 'gpu:1', a Place, an int)
resolved to a padax device, set_device/get_device and their torch-style names, synchronize."""
from __future__ import annotations

from typing import Any

from padax.runtime import backend
from padax.runtime.place import Place, place_of, resolve_device


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
