"""`padax.experimental`: APIs whose names follow jax.experimental."""
from padax.transforms.callback import io_callback

__all__ = ["io_callback"]
