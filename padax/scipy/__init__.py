"""`padax.scipy`: scipy's names and signatures (as jax.scipy has them) on padax arrays."""
from padax.scipy import integrate, interpolate, linalg, optimize, signal, sparse, spatial, special, stats  # noqa: F401
