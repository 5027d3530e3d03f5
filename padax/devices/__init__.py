"""PJRT clients, devices, the Tensor type and host<->device transfer."""
from padax.devices._jaxlib import Device  # noqa: F401  (the type of padax.devices()'s entries)
from padax.devices.array import Array, Tensor
from padax.devices.backend import default_device, device_count, devices, local_devices
from padax.devices.put import device_put
