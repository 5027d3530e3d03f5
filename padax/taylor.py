"""`padax.taylor`: Taylor-mode conveniences on top of `padax.jet`: `derivatives` (f and its directional
derivatives in one pass), `ode_coefficients` (the Taylor coefficients of an ODE's solution) and `evaluate`
(the truncated series).

The implementation is padax/transforms/taylor.py.
"""
from __future__ import annotations

from padax.transforms.taylor import derivatives, evaluate, jet, ode_coefficients

__all__ = ["jet", "derivatives", "ode_coefficients", "evaluate"]
