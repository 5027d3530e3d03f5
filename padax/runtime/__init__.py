"""PJRT clients, devices, the Tensor type and host<->device transfer."""
from padax.runtime._jaxlib import Device  # noqa: F401  (the type of padax.devices()'s entries)
from padax.runtime.array import Array, Tensor
from padax.runtime.backend import default_device, device_count, devices, local_devices
from padax.runtime.put import device_put
