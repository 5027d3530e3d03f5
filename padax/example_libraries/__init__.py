"""`padax.example_libraries`: jax.example_libraries' `stax` (layers as init/apply pairs) and `optimizers`
(optimizers as init/update/get_params triples), so jax's example scripts run with their imports changed."""
from padax.example_libraries import optimizers, stax

__all__ = ["optimizers", "stax"]
