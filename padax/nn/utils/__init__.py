"""`padax.nn.utils`: weight reparametrisations, parameter/vector conversion, gradient clipping (functional)."""
from padax.nn.utils.clip_grad import clip_grad_norm_, clip_grad_value_  # noqa: F401
from padax.nn.utils.spectral_norm import spectral_norm  # noqa: F401
from padax.nn.utils.vectors import parameters_to_vector, vector_to_parameters  # noqa: F401
from padax.nn.utils.weight_norm import remove_weight_norm, weight_norm  # noqa: F401
