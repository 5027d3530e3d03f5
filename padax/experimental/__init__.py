"""`padax.experimental`: APIs whose names follow jax.experimental."""
from padax.callback import io_callback

__all__ = ["io_callback"]
