"""`padax.scipy.stats`: distributions with SciPy's function names (as jax.scipy.stats)."""
from padax.scipy.stats import norm  # noqa: F401
