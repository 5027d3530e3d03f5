"""padax.device's answers about what is installed here: the devices of each PJRT platform, the
`is_compiled_with_*` queries, the available device names and the GPU count."""
from __future__ import annotations

from padax.runtime.place import _gpu_devices, _platform_devices


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
