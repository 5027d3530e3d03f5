"""padax: PaddlePaddle's API as a JAX-style functional library on XLA (jaxlib)."""
from padax.devices import _jaxlib as _jaxlib_guard  # noqa: F401  (installs the jax-import guard first)

from padax import lowering as _lowering  # noqa: F401  (registers lowering rules)
from padax.config import config, disable_jit, enable_x64
from padax.core import tree
from padax.devices import Array, Tensor, default_device, device_count, device_put, devices, local_devices
from padax.transforms import dispatch as _dispatch  # noqa: F401  (installs eager execution)
from padax.transforms.jit import jit
from padax.transforms.staging import ShapeDtypeStruct, eval_shape, make_jaxpr

__version__ = "0.1.0"
