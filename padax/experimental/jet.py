"""`padax.experimental.jet`: jax.experimental.jet's module path for Taylor-mode differentiation (`jet`)."""
from padax.transforms.jet import jet

__all__ = ["jet"]
